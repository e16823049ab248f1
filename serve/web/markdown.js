// A small markdown renderer of our own for the transcript. It never
// parses HTML: every piece of text becomes a text node and every element
// is made with createElement, so nothing the model writes can become
// markup or script. Links keep only http(s) targets.
'use strict';

(function () {
  function el(tag, cls) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    return e;
  }

  function safeHref(url) {
    try {
      const u = new URL(url, window.location.href);
      return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
    } catch (_) {
      return null;
    }
  }

  const INLINE = /(`+)([\s\S]*?[^`]|[^`])\1(?!`)|\*\*(?=\S)([\s\S]*?\S)\*\*|__(?=\S)([\s\S]*?\S)__|\*(?=[^\s*])([^*]*?[^\s*]|[^\s*])\*|\b_(?=[^\s_])([^_]*?[^\s_]|[^\s_])_\b|\[([^\]\n]+)\]\(([^)\s]+)\)|(https?:\/\/[^\s<>()\]]+[^\s<>()\].,;:!?'"])/g;

  // inline appends text with its inline marks to parent. Each call has a
  // regexp of its own: the calls nest (bold inside a link), and a shared
  // lastIndex would send the outer loop back to the start.
  function inline(parent, text) {
    const re = new RegExp(INLINE.source, 'g');
    let last = 0;
    let m;
    while ((m = re.exec(text)) !== null) {
      if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
      last = re.lastIndex;
      if (m[1] !== undefined) {
        const c = el('code');
        c.textContent = m[2];
        parent.appendChild(c);
      } else if (m[3] !== undefined || m[4] !== undefined) {
        const b = el('strong');
        inline(b, m[3] !== undefined ? m[3] : m[4]);
        parent.appendChild(b);
      } else if (m[5] !== undefined || m[6] !== undefined) {
        const i = el('em');
        inline(i, m[5] !== undefined ? m[5] : m[6]);
        parent.appendChild(i);
      } else if (m[7] !== undefined) {
        const href = safeHref(m[8]);
        if (href) {
          const a = el('a');
          a.setAttribute('href', href);
          a.setAttribute('rel', 'noopener noreferrer');
          a.setAttribute('target', '_blank');
          inline(a, m[7]);
          parent.appendChild(a);
        } else {
          parent.appendChild(document.createTextNode(m[0]));
        }
      } else if (m[9] !== undefined) {
        const href = safeHref(m[9]);
        const a = el('a');
        if (href) {
          a.setAttribute('href', href);
          a.setAttribute('rel', 'noopener noreferrer');
          a.setAttribute('target', '_blank');
        }
        a.textContent = m[9];
        parent.appendChild(a);
      }
      if (re.lastIndex === m.index) re.lastIndex++;
    }
    if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
  }

  const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
  const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
  const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
  const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
  const QUOTE = /^\s{0,3}>\s?(.*)$/;
  const TABLE_SEP = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

  function cells(line) {
    let s = line.trim();
    if (s.startsWith('|')) s = s.slice(1);
    if (s.endsWith('|')) s = s.slice(0, -1);
    return s.split('|').map((c) => c.trim());
  }

  // blocks renders lines into parent.
  function blocks(parent, lines) {
    let i = 0;
    let para = [];
    const flush = () => {
      if (para.length) {
        const p = el('p');
        inline(p, para.join('\n'));
        parent.appendChild(p);
        para = [];
      }
    };
    while (i < lines.length) {
      const line = lines[i];
      let m;
      if ((m = FENCE.exec(line))) {
        flush();
        const close = m[1];
        const body = [];
        i++;
        while (i < lines.length && !lines[i].trim().startsWith(close)) body.push(lines[i++]);
        i++;
        const pre = el('pre');
        const code = el('code');
        if (m[2]) code.className = 'lang-' + m[2].replace(/[^\w-]/g, '');
        code.textContent = body.join('\n');
        pre.appendChild(code);
        parent.appendChild(pre);
        continue;
      }
      if (line.trim() === '') {
        flush();
        i++;
        continue;
      }
      if ((m = HEADING.exec(line))) {
        flush();
        const h = el('h' + Math.min(6, m[1].length + 2));
        inline(h, m[2]);
        parent.appendChild(h);
        i++;
        continue;
      }
      if (RULE.test(line)) {
        flush();
        parent.appendChild(el('hr'));
        i++;
        continue;
      }
      if (QUOTE.test(line)) {
        flush();
        const body = [];
        while (i < lines.length && (m = QUOTE.exec(lines[i]))) {
          body.push(m[1]);
          i++;
        }
        const q = el('blockquote');
        blocks(q, body);
        parent.appendChild(q);
        continue;
      }
      if (line.includes('|') && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1])) {
        flush();
        const table = el('table');
        const head = el('tr');
        for (const c of cells(line)) {
          const th = el('th');
          inline(th, c);
          head.appendChild(th);
        }
        table.appendChild(head);
        i += 2;
        while (i < lines.length && lines[i].includes('|') && lines[i].trim() !== '') {
          const tr = el('tr');
          for (const c of cells(lines[i])) {
            const td = el('td');
            inline(td, c);
            tr.appendChild(td);
          }
          table.appendChild(tr);
          i++;
        }
        parent.appendChild(table);
        continue;
      }
      if ((m = ITEM.exec(line))) {
        flush();
        const ordered = /\d/.test(m[2]);
        const list = el(ordered ? 'ol' : 'ul');
        if (ordered) {
          const n = parseInt(m[2], 10);
          if (n !== 1) list.setAttribute('start', String(n));
        }
        const indent = m[1].length;
        let li = null;
        while (i < lines.length) {
          const cur = lines[i];
          const im = ITEM.exec(cur);
          if (im && im[1].length <= indent + 1) {
            li = el('li');
            inline(li, im[3]);
            list.appendChild(li);
            i++;
          } else if (li && cur.trim() !== '' && /^\s+/.test(cur)) {
            li.appendChild(document.createTextNode(' '));
            inline(li, cur.trim());
            i++;
          } else {
            break;
          }
        }
        parent.appendChild(list);
        continue;
      }
      para.push(line);
      i++;
    }
    flush();
  }

  // renderMarkdown returns text rendered as a fragment of safe nodes.
  window.renderMarkdown = function (text) {
    const frag = document.createDocumentFragment();
    blocks(frag, String(text).replace(/\r\n?/g, '\n').split('\n'));
    return frag;
  };
})();
