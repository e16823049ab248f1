// The ptc web UI: the session list and one session's live view, over
// the /v1 API. Every piece of text from a session is put into the page
// as text (textContent, text nodes, renderMarkdown's safe nodes), never
// as HTML. The token is in an HttpOnly cookie this script cannot read.
'use strict';

// h makes an element: h('div#id.cls', {title: 'x', onclick: fn}, child, 'text', ...).
function h(spec, attrs, ...kids) {
  let id = null;
  spec = spec.replace(/#([\w-]+)/, (_, x) => { id = x; return ''; });
  const [tag, ...classes] = spec.split('.');
  const e = document.createElement(tag || 'div');
  if (id) e.id = id;
  if (classes.length) e.className = classes.join(' ');
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    kids.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else if (k === 'value') e.value = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const k of kids.flat(Infinity)) {
    if (k === null || k === undefined || k === false) continue;
    e.appendChild(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return e;
}

// fill replaces el's children with kids, leaving out the empty ones.
function fill(el, ...kids) {
  el.replaceChildren(...kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false));
  return el;
}

class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || 'HTTP ' + status);
    this.status = status;
    this.body = body || {};
  }
}

async function api(method, path, body) {
  const opts = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const text = await r.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { data = null; }
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
}

const sessionPath = (id) => '/v1/sessions/' + encodeURIComponent(id);
const main = () => document.getElementById('main');
const fmtTime = (ms) => (ms ? new Date(ms).toLocaleString() : '');
const tokens = (n) => (n >= 10000 ? (n / 1000).toFixed(n >= 100000 ? 0 : 1) + 'k' : String(n || 0));

function clip(s, n) {
  s = String(s || '');
  return s.length > n ? s.slice(0, n) + '…' : s;
}

function parseJSON(s) {
  try { return JSON.parse(s); } catch (_) { return null; }
}

// shortArgs is a call's arguments on one line, the telling field first.
function shortArgs(raw) {
  const a = parseJSON(raw);
  if (!a || typeof a !== 'object') return clip(raw, 100);
  for (const k of ['description', 'command', 'file_path', 'path', 'pattern', 'question', 'prompt']) {
    if (typeof a[k] === 'string' && a[k]) return clip(a[k].split('\n')[0], 100);
  }
  return clip(Object.keys(a).map((k) => k + '=' + JSON.stringify(a[k])).join(' '), 100);
}

// --- views -------------------------------------------------------------

let current = null; // the view on screen: {stop()}

function route() {
  if (current) current.stop();
  const m = /^#\/s\/(.+)$/.exec(window.location.hash);
  current = m ? sessionView(decodeURIComponent(m[1])) : listView();
}

window.addEventListener('hashchange', route);
window.addEventListener('DOMContentLoaded', route);

function setWhere(text) {
  document.getElementById('where').textContent = text || '';
}

function statusBadge(status) {
  const s = String(status || 'new');
  return h('span.badge.' + s.replace(/[^a-z-]/g, ''), s);
}

function listView() {
  setWhere('sessions');
  const root = main();
  root.replaceChildren();
  const err = h('p.error');
  const list = h('ul.sessions#sessions');
  const ws = h('input', { name: 'workspace', placeholder: '/path/to/project', required: true, autocomplete: 'off' });
  const preset = h('select', { name: 'preset' });
  const model = h('input', { name: 'model', placeholder: 'default (or script:FILE)', autocomplete: 'off' });
  const sandbox = h('select', { name: 'sandbox' }, ['', 'read-only', 'workspace-write', 'git-write', 'danger-full-access'].map((v) => h('option', { value: v }, v || 'preset default')));
  const approval = h('select', { name: 'approval' }, h('option', { value: 'ask' }, 'ask'), h('option', { value: 'never' }, 'never'));
  const form = h('form.new#new-session', {
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      const body = { workspace: ws.value.trim() };
      if (preset.value) body.preset = preset.value;
      if (model.value.trim()) body.model = model.value.trim();
      if (sandbox.value) body.sandbox = sandbox.value;
      body.approval = approval.value;
      try {
        const rec = await api('POST', '/v1/sessions', body);
        window.location.hash = '#/s/' + encodeURIComponent(rec.id);
      } catch (x) {
        err.textContent = x.message;
      }
    },
  },
  h('label.wide', 'workspace', ws), h('label', 'preset', preset), h('label', 'model', model),
  h('label', 'sandbox', sandbox), h('label', 'approval', approval),
  h('button.primary', { type: 'submit' }, 'New session'));
  root.append(h('h1', 'Sessions'), form, err, list);
  api('GET', '/v1/presets').then((ps) => {
    fill(preset, ps.map((p) => h('option', { value: p.id, title: p.description, selected: p.default }, p.id)));
  }).catch(() => {});

  let stopped = false;
  async function refresh() {
    try {
      const recs = await api('GET', '/v1/sessions');
      if (stopped) return;
      if (!ws.value && recs.length) ws.value = recs[0].settings.workspace || '';
      list.replaceChildren(...recs.map((r) => h('li', h('a', { href: '#/s/' + encodeURIComponent(r.id) },
        h('div', h('span.title', r.title || '(untitled)'), statusBadge(r.status),
          r.pending.length ? h('span.badge.waiting', r.pending.length + ' waiting') : null),
        h('div.meta', r.id.slice(0, 12) + ' · ' + (r.settings.workspace || '') + ' · ' + (r.settings.preset || '') + ' · ' + fmtTime(r.updated_at))))));
      if (!recs.length) list.replaceChildren(h('li.dim', 'No sessions yet.'));
    } catch (x) {
      err.textContent = x.message;
    }
  }
  refresh();
  const timer = setInterval(refresh, 5000);
  return { stop() { stopped = true; clearInterval(timer); } };
}

// The event types a session stream carries (EventSource delivers named
// events only to listeners of their name).
const EVENT_TYPES = ['turn/start', 'turn/end', 'step/start', 'step/end', 'user/message', 'assistant/chunk',
  'assistant/attempt', 'assistant/message', 'tool/call', 'tool/result', 'tool/ptc-dispatch-start', 'tool/ptc-dispatch',
  'tool/ptc-log', 'request/header', 'session/end-seed', 'sandbox/mode', 'approval/policy', 'approval/asked',
  'approval/decided', 'llm/retry', 'todo/write', 'session/settings', 'context/meter', 'tool/pruned', 'compaction/start',
  'compaction/summary', 'compaction/end', 'plan/mode', 'goal/create', 'goal/update', 'goal/round', 'subagent/start',
  'subagent/end'];

function sessionView(id) {
  const v = new SessionView(id);
  v.start();
  return v;
}

class SessionView {
  constructor(id) {
    this.id = id;
    this.calls = new Map(); // call id → {box, status, nested, console, result, name}
    this.live = new Map(); // turn/step → the streaming answer's parts
    this.usage = { input: 0, output: 0, hit: 0, cost: 0 };
    this.meter = null;
    this.record = null;
    this.lastSeq = -1;
  }

  start() {
    const root = main();
    root.replaceChildren();
    setWhere('session ' + this.id.slice(0, 12));
    this.title = h('h1');
    this.status = h('span');
    this.chips = h('div.chips');
    this.usageLine = h('div.usage#usage');
    this.errors = h('p.error');
    this.cards = h('div.cards#pending');
    this.transcript = h('div.transcript#transcript');
    this.todos = h('div.todos#todos', h('h2', 'Todo'), h('ul', h('li.dim', 'No todo list yet.')));
    this.todos.hidden = true;
    root.append(
      h('div.head', this.title, this.status, this.chips), this.usageLine, this.errors,
      h('div.layout', h('div', this.transcript, this.cards), h('aside.side', this.todos)),
      this.promptBox());
    this.refresh();
    this.connect();
  }

  stop() {
    this.stopped = true;
    if (this.es) this.es.close();
    clearTimeout(this.refreshTimer);
  }

  promptBox() {
    const ta = h('textarea#prompt', { rows: 2, placeholder: 'Message the agent… (Enter sends, Shift+Enter for a new line)', 'aria-label': 'prompt' });
    const send = async () => {
      const text = ta.value;
      if (!text.trim()) return;
      try {
        await api('POST', sessionPath(this.id) + '/prompt', { text });
        ta.value = '';
        this.errors.textContent = '';
      } catch (x) {
        this.errors.textContent = x.message;
      }
    };
    ta.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        send();
      }
    });
    this.stopButton = h('button.danger#stop', {
      type: 'button',
      onclick: async () => {
        try {
          const r = await api('POST', sessionPath(this.id) + '/cancel', {});
          if (r.dropped && r.dropped.length && !ta.value) ta.value = r.dropped.join('\n\n');
        } catch (x) {
          this.errors.textContent = x.message;
        }
      },
    }, 'Stop');
    const form = h('form', { onsubmit: (e) => { e.preventDefault(); send(); } },
      ta, h('button.primary#send', { type: 'submit' }, 'Send'), this.stopButton);
    return h('div.prompt', form);
  }

  connect() {
    const es = new EventSource(sessionPath(this.id) + '/events');
    this.es = es;
    const conn = document.getElementById('conn');
    es.onopen = () => { conn.textContent = 'live'; };
    es.onerror = () => { conn.textContent = 'reconnecting…'; };
    for (const t of EVENT_TYPES) {
      es.addEventListener(t, (m) => {
        const ev = parseJSON(m.data);
        if (!ev || ev.seq <= this.lastSeq) return;
        this.lastSeq = ev.seq;
        try { this.apply(ev); } catch (x) { console.error(x); }
      });
    }
    es.addEventListener('end', (m) => {
      const d = parseJSON(m.data) || {};
      if (d.reason === 'deleted') {
        es.close();
        conn.textContent = 'deleted';
        this.errors.textContent = 'This session was deleted.';
      }
    });
  }

  // refresh reads the record again (status, settings, pending requests),
  // at most every 150 ms.
  refresh() {
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(async () => {
      this.refreshTimer = null;
      try {
        const r = await api('GET', sessionPath(this.id));
        if (!this.stopped) this.showRecord(r);
      } catch (x) {
        if (!this.stopped) this.errors.textContent = x.message;
      }
    }, 150);
  }

  showRecord(r) {
    this.record = r;
    this.title.textContent = r.title || '(untitled)';
    fill(this.status, statusBadge(r.status), r.queued ? h('span.badge', r.queued + ' queued') : null);
    const s = r.settings || {};
    fill(this.chips,
      h('span', 'model ', h('b', (r.model && r.model.name) || s.model || 'default')),
      h('span', 'preset ', h('b', s.preset || '')), h('span', 'sandbox ', h('b', s.sandbox || '')),
      h('span', 'approval ', h('b', s.approval || '')), r.plan_mode ? h('span.warn', 'plan mode') : null,
      h('span.dim', s.workspace || ''));
    if (r.error) this.errors.textContent = r.error;
    this.stopButton.disabled = !r.running;
    this.showPending(r.pending || []);
    this.showUsage();
  }

  showUsage() {
    const u = this.usage;
    const parts = ['in ' + tokens(u.input)];
    if (u.input) parts[0] += ' (' + Math.round((100 * u.hit) / u.input) + '% cached)';
    parts.push('out ' + tokens(u.output));
    if (u.cost > 0) parts.push('$' + u.cost.toFixed(4));
    const window_ = (this.meter && this.meter.window) || (this.record && this.record.model && this.record.model.context_window);
    if (this.meter && window_) parts.push('context ' + Math.round((100 * this.meter.tokens) / window_) + '% of ' + tokens(window_));
    this.usageLine.textContent = parts.join(' · ');
  }

  showPending(list) {
    const open = new Set(list.map((p) => p.id));
    for (const card of [...this.cards.children]) {
      if (!open.has(card.dataset.id)) card.remove();
    }
    const have = new Set([...this.cards.children].map((c) => c.dataset.id));
    for (const p of list) {
      if (!have.has(p.id)) this.cards.appendChild(this.card(p));
    }
  }

  card(p) {
    const note = h('p.note');
    const answer = async (body, buttons) => {
      buttons.forEach((b) => { b.disabled = true; });
      try {
        await api('POST', sessionPath(this.id) + '/pending/' + encodeURIComponent(p.id), body);
        card.remove();
      } catch (x) {
        note.textContent = x.body && x.body.error === 'already_answered'
          ? 'Already answered elsewhere (' + (x.body.answer || '') + ').' : x.message;
        buttons.forEach((b) => { b.disabled = false; });
        this.refresh();
      }
    };
    const card = h('div.card', { 'data-id': p.id, 'data-kind': p.kind });
    card.appendChild(h('h3', p.title));
    if (p.stale) card.appendChild(h('p.note', 'Asked before ptc serve restarted: answering resumes the session.'));
    if (p.kind === 'approval') {
      card.appendChild(h('dl', (p.fields || []).map((f) => [h('dt', f.label), h('dd', f.value)])));
      const btns = [];
      const b = (label, decision, cls) => {
        const x = h('button' + (cls || ''), { type: 'button', 'data-decision': decision, onclick: () => answer({ decision }, btns) }, label);
        btns.push(x);
        return x;
      };
      card.appendChild(h('div.actions', b('Allow once', 'once', '.primary'), b('Allow for this session', 'session'), b('Deny', 'deny', '.danger')));
    } else if (p.kind === 'plan') {
      card.appendChild(h('div.msg.assistant', window.renderMarkdown(p.text || '')));
      const fb = h('input', { placeholder: 'what to change (keeps planning)' });
      const btns = [];
      const approve = h('button.primary', { type: 'button', onclick: () => answer({ decision: 'once' }, btns) }, 'Approve and start');
      const keep = h('button', { type: 'button', onclick: () => answer(fb.value.trim() ? { answer: fb.value } : { decision: 'deny' }, btns) }, 'Keep planning');
      btns.push(approve, keep);
      card.appendChild(h('div.actions', approve, fb, keep));
    } else {
      card.appendChild(h('p', p.text || ''));
      const btns = [];
      const opts = (p.options || []).map((o) => {
        const x = h('button', { type: 'button', onclick: () => answer({ answer: o }, btns) }, o);
        btns.push(x);
        return x;
      });
      const own = h('input', { placeholder: 'your answer' });
      const sendOwn = h('button.primary', { type: 'button', onclick: () => own.value.trim() && answer({ answer: own.value }, btns) }, 'Answer');
      btns.push(sendOwn);
      card.appendChild(h('div.actions', opts, own, sendOwn));
    }
    card.appendChild(note);
    return card;
  }

  add(node) {
    const nearBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 120;
    this.transcript.appendChild(node);
    if (nearBottom) node.scrollIntoView({ block: 'end' });
    return node;
  }

  note(text, cls) {
    return this.add(h('div.note' + (cls ? '.' + cls : ''), text));
  }

  apply(ev) {
    const d = parseJSON(JSON.stringify(ev.data)) || {};
    switch (ev.type) {
      case 'user/message': return this.userMessage(d);
      case 'assistant/chunk': return this.chunk(d);
      case 'assistant/attempt': return this.note('model attempt ' + d.attempt + ' failed: ' + (d.failure || ''), 'warn');
      case 'assistant/message': return this.answer(d);
      case 'tool/call': return this.toolCall(d.callId, d.name, d.arguments, null);
      case 'tool/ptc-dispatch-start': return this.toolCall(d.subCallId, d.name, d.arguments, d.parentCallId || d.rootCallId);
      case 'tool/ptc-dispatch': return this.nestedDone(d);
      case 'tool/ptc-log': return this.consoleLine(d);
      case 'tool/result': return this.toolResult(d);
      case 'todo/write': return this.showTodos(d.todos || []);
      case 'context/meter': this.meter = d; return this.showUsage();
      case 'llm/retry': return this.note('model request failed (' + (d.code || '') + '); retrying', 'warn');
      case 'turn/end':
        if (d.reason !== 'completed') this.note('turn ' + d.turn + ' ended: ' + d.reason + (d.failure ? ': ' + d.failure : '') + (d.cause ? ' (' + d.cause + ')' : ''), 'warn');
        return this.refresh();
      case 'compaction/end': return this.note('the session was compacted');
      case 'approval/asked': case 'approval/decided': case 'turn/start': case 'session/settings': case 'plan/mode':
        return this.refresh();
      default:
        return undefined;
    }
  }

  userMessage(d) {
    const text = (d.content || []).map((b) => b.text || '').join('\n');
    const src = d.source || {};
    if (d.replaces) {
      return this.add(h('details.reasoning', h('summary', 'summary of the earlier conversation'), h('div', text)));
    }
    if (src.kind === 'user') {
      this.refresh();
      return this.add(h('div.msg.user', text));
    }
    if (src.form === 'notice') return this.note(clip(text, 400));
    return undefined; // runtime-context snapshots are for the model
  }

  liveAnswer(d) {
    const key = d.turn + '/' + d.step;
    let a = this.live.get(key);
    if (!a || a.attempt !== d.attempt) {
      if (a) a.box.remove();
      const reasoning = h('div');
      const fold = h('details.reasoning', h('summary', 'reasoning'), reasoning);
      fold.hidden = true;
      const text = h('div.streaming');
      a = { attempt: d.attempt, reasoning, fold, text, box: this.add(h('div.msg.assistant', fold, text)) };
      this.live.set(key, a);
    }
    return a;
  }

  chunk(d) {
    const c = d.chunk || {};
    if (c.kind !== 'text' && c.kind !== 'reasoning') return;
    const a = this.liveAnswer(d);
    if (c.kind === 'reasoning') {
      a.fold.hidden = false;
      a.reasoning.appendChild(document.createTextNode(c.text || ''));
    } else {
      a.text.appendChild(document.createTextNode(c.text || ''));
    }
  }

  answer(d) {
    const m = d.message || {};
    const u = d.usage || {};
    this.usage.input += u.input || 0;
    this.usage.output += u.output || 0;
    this.usage.hit += u.cacheHit || 0;
    this.usage.cost += u.cost_usd || 0;
    this.showUsage();
    const key = d.turn + '/' + d.step;
    const a = this.live.get(key) || this.liveAnswer({ turn: d.turn, step: d.step, attempt: -1 });
    this.live.delete(key);
    if (!m.content && !m.reasoning) {
      a.box.remove();
      return;
    }
    a.reasoning.textContent = m.reasoning || '';
    a.fold.hidden = !m.reasoning;
    const body = h('div.md');
    body.appendChild(window.renderMarkdown(m.content || ''));
    a.text.replaceWith(body);
    if (d.interrupted) a.box.appendChild(h('div.note.warn', '(interrupted)'));
    // Keep the answer above the calls it asked for.
    const firstCall = (m.toolCalls || []).map((c) => this.calls.get(c.id)).find(Boolean);
    if (firstCall) this.transcript.insertBefore(a.box, firstCall.box);
  }

  toolCall(id, name, raw, parentId) {
    const args = parseJSON(raw) || {};
    const status = h('span.status', '…');
    const c = { id, name, status, nested: null, console: null, result: null, args };
    if (parentId && this.calls.has(parentId)) {
      const parent = this.calls.get(parentId);
      if (!parent.nested) parent.nested = parent.box.insertBefore(h('ul.nested'), parent.result || null);
      c.err = h('span.err');
      c.box = h('li', { 'data-call': id }, status, ' ', h('span.name', name), ' ', h('span.desc', shortArgs(raw)), ' ', c.err);
      parent.nested.appendChild(c.box);
      this.calls.set(id, c);
      if (name === 'ask_user_question' || name === 'exit_plan_mode') this.refresh();
      return;
    }
    const box = h('div.call', { 'data-call': id });
    box.appendChild(h('div.line', status, ' ', h('span.name', name), ' ', h('span.desc', shortArgs(raw))));
    if (name === 'run_code' && typeof args.code === 'string') {
      box.appendChild(h('details', h('summary.dim', 'program'), h('pre', args.code)));
    } else if (name === 'bash' && typeof args.command === 'string') {
      box.appendChild(h('pre', '$ ' + args.command));
    }
    c.box = this.add(box);
    this.calls.set(id, c);
    if (name === 'ask_user_question' || name === 'exit_plan_mode') this.refresh();
  }

  consoleLine(d) {
    const c = this.calls.get(d.callId);
    if (!c) return;
    if (!c.console) c.console = c.box.insertBefore(h('pre.console'), c.result || null);
    c.console.appendChild(document.createTextNode((d.text || '').replace(/\n?$/, '\n')));
  }

  nestedDone(d) {
    const c = this.calls.get(d.subCallId);
    if (!c) return;
    c.status.textContent = d.isError ? '✗' : '✓';
    c.status.className = 'status ' + (d.isError ? 'bad' : 'ok');
    if (d.isError) c.err.textContent = clip((d.error && d.error.message) || d.content || '', 300);
    if (!d.isError) this.maybeDiff(c);
  }

  toolResult(d) {
    const c = this.calls.get(d.callId);
    if (!c) return;
    c.status.textContent = d.isError ? '✗' : '✓';
    c.status.className = 'status ' + (d.isError ? 'bad' : 'ok');
    const text = (d.content || []).map((b) => b.text || '').join('\n').replace(/\n+$/, '');
    if (text) {
      const lines = text.split('\n');
      const pre = h('pre', lines.length > 12 ? lines.slice(0, 12).join('\n') : text);
      const res = h('div.result', pre);
      if (lines.length > 12) {
        res.appendChild(h('button', { type: 'button', onclick: (e) => { pre.textContent = text; e.target.remove(); } }, 'show all ' + lines.length + ' lines'));
      }
      c.result = c.box.appendChild(res);
    }
    if (!d.isError) this.maybeDiff(c);
  }

  async maybeDiff(c) {
    if (!['edit', 'write', 'str_replace_editor'].includes(c.name)) return;
    try {
      const diff = await api('GET', sessionPath(this.id) + '/calls/' + encodeURIComponent(c.id) + '/diff');
      const box = h('div.diff', h('div.path', (diff.whole ? 'new content of ' : '') + (diff.path || '')));
      for (const hunk of diff.hunks || []) {
        box.appendChild(h('div.l.hunk', hunk.header));
        for (const l of hunk.lines || []) {
          box.appendChild(h('div.l' + (l.kind === '+' ? '.add' : l.kind === '-' ? '.del' : ''), l.kind + l.text));
        }
      }
      if (c.box.tagName === 'LI') c.box.appendChild(box);
      else c.box.insertBefore(box, c.result || null);
    } catch (_) {
      // no diff to show
    }
  }

  showTodos(todos) {
    this.todos.hidden = false;
    const mark = { completed: '☑', in_progress: '▶', pending: '☐' };
    this.todos.replaceChildren(h('h2', 'Todo'), h('ul', todos.map((t) =>
      h('li.' + String(t.status || 'pending').replace(/[^a-z_]/g, ''), (mark[t.status] || '☐') + ' ', t.content || ''))));
  }
}
