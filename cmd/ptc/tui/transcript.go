package tui

import (
	"encoding/json"
	"strings"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// kind says what an entry of the transcript shows.
type kind int

const (
	kindUser kind = iota
	kindAssistant
	kindReasoning
	kindTool
	kindNotice
)

// tone colours a notice.
type tone int

const (
	toneInfo tone = iota
	toneWarn
	toneError
)

// entry is one block of the conversation as the TUI shows it. Every text
// field holds sanitised text (termsafe) from the moment it is stored, so
// no view can print model- or tool-controlled bytes raw.
type entry struct {
	kind      kind
	text      string // user text, markdown source, reasoning, notice
	tone      tone
	attached  []string // @path attachments of a user message
	streaming bool     // text still arriving
	tool      *toolCall
	// rendered caches the entry's view for one width and toggle state.
	rendered string
	cacheKey string
}

// transcript folds session events into entries. It is the one reducer for
// a live session and for the earlier turns of a resumed one.
type transcript struct {
	entries []*entry
	calls   map[string]*toolCall // by call id, nested calls included
	// live is the entry receiving the current attempt's text or
	// reasoning; reset when an attempt fails.
	liveText, liveReason *entry
	usage                usageTotals
	meter                *session.ContextMeter
	lastSeq              int64
	turnRunning          bool
	ext                  extState
}

func newTranscript() *transcript {
	return &transcript{calls: map[string]*toolCall{}, lastSeq: -1}
}

func (t *transcript) add(e *entry) *entry {
	t.entries = append(t.entries, e)
	return e
}

// notice appends a line of ptc's own (or sanitised foreign) text.
func (t *transcript) notice(tn tone, text string) {
	t.add(&entry{kind: kindNotice, tone: tn, text: termsafe.String(text)})
}

// apply folds one event (and, for file-changing calls, what the tracker
// saw of the file) into the transcript. Events at or below lastSeq were
// seen already and are skipped, so a snapshot and a subscription may
// overlap.
func (t *transcript) apply(it item) {
	ev := it.ev
	if ev.Seq <= t.lastSeq {
		return
	}
	t.lastSeq = ev.Seq
	t.usage.Fold(ev)
	switch ev.Type {
	case session.TypeTurnStart:
		t.turnRunning = true
	case session.TypeTurnEnd:
		t.turnRunning = false
		t.endStreaming()
		var d session.TurnEnd
		if decode(ev, &d) {
			t.turnEnd(d)
		}
	case session.TypeUserMessage:
		var d session.UserMessage
		if decode(ev, &d) {
			t.userMessage(d)
		}
	case session.TypeAssistantChunk:
		var d session.AssistantChunk
		if decode(ev, &d) {
			t.chunk(d.Chunk)
		}
	case session.TypeAssistantAttempt:
		t.dropAttempt()
	case session.TypeAssistantMessage:
		var d session.AssistantMessage
		if decode(ev, &d) {
			t.assistantMessage(d)
		}
	case session.TypeToolCall:
		var d session.ToolCall
		if decode(ev, &d) {
			t.endStreaming()
			c := newToolCall(d.CallID, d.Name, d.Arguments, ev.Time)
			c.change = it.change
			t.calls[d.CallID] = c
			t.add(&entry{kind: kindTool, tool: c})
		}
	case session.TypeToolResult:
		var d session.ToolResult
		if decode(ev, &d) {
			t.toolResult(d, ev.Time, it.change)
		}
	case session.TypePtcDispatchStart, session.TypePtcDispatch:
		var d session.PtcDispatch
		if decode(ev, &d) {
			t.dispatch(ev, d, it.change)
		}
	case session.TypePtcLog:
		var d session.PtcLog
		if decode(ev, &d) {
			if c := t.calls[d.CallID]; c != nil {
				c.addLog(d.Text)
			}
		}
	case session.TypeLLMRetry:
		var d session.LLMRetry
		if decode(ev, &d) {
			t.notice(toneWarn, "model request failed ("+d.Code+"); retrying")
		}
	case session.TypeApprovalDecided:
		var d session.ApprovalDecided
		if decode(ev, &d) && d.By == "user" {
			t.notice(toneInfo, "approval for "+termsafe.Line(d.Name)+": "+d.Decision)
		}
	case session.TypeSandboxMode:
		var d session.SandboxMode
		if decode(ev, &d) && d.CallID != "" {
			t.notice(toneWarn, "sandbox: "+termsafe.Line(d.Mode)+" for one call — "+d.Reason)
		}
	case session.TypeSettings:
		var d session.SettingsChange
		if decode(ev, &d) && d.Reason == "change" {
			t.notice(toneInfo, settingsText(d))
		}
	case session.TypeContextMeter:
		var d session.ContextMeter
		if decode(ev, &d) {
			t.meter = &d
		}
	case session.TypeCompactionStart:
		var d session.CompactionStart
		if decode(ev, &d) {
			t.notice(toneInfo, "compacting the context ("+d.Trigger+")…")
		}
	case session.TypeCompactionEnd:
		var d session.CompactionEnd
		if decode(ev, &d) {
			t.notice(toneInfo, compactionLine(d))
		}
	default:
		t.extension(ev)
	}
}

func decode(ev session.Event, v any) bool { return json.Unmarshal(ev.Data, v) == nil }

// userMessage shows what the user typed; runtime snapshots are not shown,
// compaction summaries as one line.
func (t *transcript) userMessage(d session.UserMessage) {
	var text strings.Builder
	for _, b := range d.Content {
		text.WriteString(b.Text)
	}
	switch {
	case d.Source.Kind == "user":
		typed, files := splitAttachments(text.String())
		t.add(&entry{kind: kindUser, text: termsafe.String(typed), attached: safeAll(files)})
	case d.Source.Form == "summary" || d.Replaces != nil:
		t.notice(toneInfo, "earlier turns are summarised (compaction)")
	}
}

func (t *transcript) chunk(c llm.Chunk) {
	switch c.Kind {
	case llm.ChunkText:
		if t.liveText == nil {
			t.liveText = t.add(&entry{kind: kindAssistant, streaming: true})
		}
		t.liveText.text += termsafe.String(c.Text)
	case llm.ChunkReasoning:
		if t.liveReason == nil {
			t.liveReason = t.add(&entry{kind: kindReasoning, streaming: true})
		}
		t.liveReason.text += termsafe.String(c.Text)
	}
}

// dropAttempt removes what a failed attempt streamed: the retry streams
// its own answer.
func (t *transcript) dropAttempt() {
	for _, e := range []*entry{t.liveText, t.liveReason} {
		if e == nil {
			continue
		}
		for i, x := range t.entries {
			if x == e {
				t.entries = append(t.entries[:i], t.entries[i+1:]...)
				break
			}
		}
	}
	t.liveText, t.liveReason = nil, nil
}

// assistantMessage settles the step's answer: the message is the truth
// (a resumed session has no chunks of it at all).
func (t *transcript) assistantMessage(d session.AssistantMessage) {
	if r := d.Message.Reasoning; r != "" {
		if t.liveReason == nil {
			t.liveReason = t.add(&entry{kind: kindReasoning})
		}
		t.liveReason.text = termsafe.String(r)
	}
	if c := d.Message.Content; c != "" {
		if t.liveText == nil {
			t.liveText = t.add(&entry{kind: kindAssistant})
		}
		t.liveText.text = termsafe.String(c)
	}
	if d.Interrupted && t.liveText != nil {
		t.liveText.text += "\n\n*(interrupted)*"
	}
	t.endStreaming()
}

func (t *transcript) endStreaming() {
	for _, e := range []*entry{t.liveText, t.liveReason} {
		if e != nil {
			e.streaming = false
		}
	}
	t.liveText, t.liveReason = nil, nil
}

func (t *transcript) toolResult(d session.ToolResult, at int64, ch *fileChange) {
	c := t.calls[d.CallID]
	if c == nil { // repaired or never announced: show it anyway
		c = newToolCall(d.CallID, d.Name, "", at)
		t.calls[d.CallID] = c
		t.add(&entry{kind: kindTool, tool: c})
	}
	var text strings.Builder
	for _, b := range d.Content {
		text.WriteString(b.Text)
	}
	c.settle(at, d.IsError, d.Error, text.String(), ch)
}

func (t *transcript) dispatch(ev session.Event, d session.PtcDispatch, ch *fileChange) {
	parent := t.calls[d.ParentCallID]
	if parent == nil {
		parent = t.calls[d.RootCallID]
	}
	if ev.Type == session.TypePtcDispatchStart {
		c := newToolCall(d.SubCallID, d.Name, d.Arguments, ev.Time)
		c.change = ch
		c.nestedIn = parent
		t.calls[d.SubCallID] = c
		if parent != nil {
			parent.nested = append(parent.nested, c)
		}
		return
	}
	if c := t.calls[d.SubCallID]; c != nil {
		c.settle(ev.Time, d.IsError, d.Error, d.Content, ch)
	}
}

func (t *transcript) turnEnd(d session.TurnEnd) {
	for _, c := range t.calls {
		if c.status == statusRunning {
			c.status = statusCancelled
		}
	}
	switch d.Reason {
	case session.ReasonCompleted:
	case session.ReasonAborted:
		why := "cancelled"
		if d.Cause != "" {
			why += " (" + d.Cause + ")"
		}
		t.notice(toneWarn, "turn "+why+"; the session goes on")
	case session.ReasonError:
		t.notice(toneError, "turn failed: "+d.Failure)
	default:
		t.notice(toneWarn, "turn ended: "+d.Reason)
	}
}

func settingsText(d session.SettingsChange) string {
	var parts []string
	s := d.Settings
	for _, f := range d.Changed {
		v := ""
		switch f {
		case session.FieldModel:
			v = s.Model
		case session.FieldPreset:
			v = s.Preset
		case session.FieldSandbox:
			v = s.Sandbox
		case session.FieldApproval:
			v = s.Approval
		default:
			continue
		}
		parts = append(parts, string(f)+" → "+termsafe.Line(v))
	}
	if len(parts) == 0 {
		return "settings changed"
	}
	return "settings: " + strings.Join(parts, ", ")
}

func compactionLine(d session.CompactionEnd) string {
	switch {
	case d.Error != "":
		return "compaction failed: " + d.Error
	case d.Skipped != "":
		return d.Skipped
	}
	return "compacted: about " + kilo(d.TokensBefore) + " → " + kilo(d.TokensAfter) + " tokens"
}

func safeAll(ss []string) []string {
	for i, s := range ss {
		ss[i] = termsafe.Line(s)
	}
	return ss
}
