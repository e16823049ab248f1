package session

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// parallelFrom is the session length above which DeriveMessages decodes
// ranges of events on several goroutines.
const parallelFrom = 8192

// DeriveMessages projects the surface of a session into the message list
// of a model request. Only user/message (→ user), assistant/message (→
// assistant; one with neither content nor tool calls projects to nothing)
// and tool/result (→ tool) are model-visible; every other event is skipped
// by its type without decoding its data. Text blocks of one message are
// joined with a newline. Two kinds of event replace what is already on
// the surface instead of adding to it: a user/message with Replaces (a
// compaction summary takes the place of that span) and tool/pruned (a
// shorter content for one tool result); see Surface. Long sessions are
// decoded in parallel ranges; the result is the same as a sequential pass.
//
// An error means a surface event's data does not decode, or a replacement
// names items that are not on the surface; it names the seq (the earliest
// such event).
func DeriveMessages(events []Event) ([]llm.Message, error) {
	r, err := project(events)
	if err != nil {
		return nil, err
	}
	return r.messages(false)
}

// project decodes the surface events of a whole session, in parallel
// ranges when it is long.
func project(events []Event) (projection, error) {
	parts := runtime.GOMAXPROCS(0)
	if len(events) < parallelFrom || parts < 2 {
		return deriveRange(events)
	}
	results := make([]projection, parts)
	errs := make([]error, parts)
	size := (len(events) + parts - 1) / parts
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := min(p*size, len(events)), min((p+1)*size, len(events))
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[p], errs[p] = deriveRange(events[lo:hi])
		}()
	}
	wg.Wait()
	total, nops := 0, 0
	for p := range parts {
		if errs[p] != nil {
			return projection{}, errs[p]
		}
		total += len(results[p].msgs)
		nops += len(results[p].ops)
	}
	out := projection{msgs: make([]llm.Message, 0, total), seqs: make([]int64, 0, total)}
	if nops > 0 {
		out.ops = make([]surfaceOp, 0, nops)
	}
	for _, r := range results {
		for _, op := range r.ops {
			op.at += len(out.msgs)
			out.ops = append(out.ops, op)
		}
		out.msgs = append(out.msgs, r.msgs...)
		out.seqs = append(out.seqs, r.seqs...)
	}
	return out, nil
}

// deriveRange is the sequential projection of one range of events.
func deriveRange(events []Event) (projection, error) {
	n := 0
	for i := range events {
		switch events[i].Type {
		case TypeUserMessage, TypeAssistantMessage, TypeToolResult:
			n++
		}
	}
	out := projection{msgs: make([]llm.Message, 0, n), seqs: make([]int64, 0, n)}
	for i := range events {
		e := &events[i]
		var m llm.Message
		var span *SurfaceSpan
		var err error
		switch e.Type {
		case TypeUserMessage:
			m, span, err = projectUser(e.Data)
		case TypeAssistantMessage:
			m, err = projectAssistant(e.Data)
		case TypeToolResult:
			m, err = projectResult(e.Data)
		case TypeToolPruned:
			err = out.addPruned(e)
		case TypeRewind:
			err = out.addRewind(e)
		default:
			continue
		}
		if err != nil {
			return projection{}, surfaceError(e, err)
		}
		switch {
		case span != nil:
			out.ops = append(out.ops, surfaceOp{at: len(out.msgs), seq: e.Seq, span: *span, msg: m})
		case m.Role != "":
			out.msgs = append(out.msgs, m)
			out.seqs = append(out.seqs, e.Seq)
		}
	}
	return out, nil
}

// projectUser, projectAssistant and projectResult turn one surface event
// into its message (Role empty: nothing to project). They try the fast
// reader first and let encoding/json decide whatever it declines.
// projectUser also returns the span a summary replaces (nil for an
// ordinary message).
func projectUser(data []byte) (llm.Message, *SurfaceSpan, error) {
	blocks, ok := fastUser(data)
	var span *SurfaceSpan
	if !ok {
		var d struct {
			Content  []Block      `json:"content"`
			Replaces *SurfaceSpan `json:"replaces"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			return llm.Message{}, nil, err
		}
		blocks, span = d.Content, d.Replaces
	}
	return llm.Message{Role: llm.RoleUser, Content: joinText(blocks)}, span, nil
}

func projectAssistant(data []byte) (llm.Message, error) {
	content, reasoning, calls, ok := fastAssistant(data)
	if !ok {
		var d struct {
			Message llm.Message `json:"message"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			return llm.Message{}, err
		}
		content, reasoning, calls = d.Message.Content, d.Message.Reasoning, d.Message.ToolCalls
	}
	if content == "" && len(calls) == 0 {
		return llm.Message{}, nil
	}
	return llm.Message{Role: llm.RoleAssistant, Content: content, Reasoning: reasoning, ToolCalls: calls}, nil
}

func projectResult(data []byte) (llm.Message, error) {
	callID, name, blocks, ok := fastResult(data)
	if !ok {
		var d struct {
			CallID  string  `json:"callId"`
			Name    string  `json:"name"`
			Content []Block `json:"content"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			return llm.Message{}, err
		}
		callID, name, blocks = d.CallID, d.Name, d.Content
	}
	return llm.Message{Role: llm.RoleTool, ToolCallID: callID, Name: name, Content: joinText(blocks)}, nil
}

func surfaceError(e *Event, err error) error {
	return fmt.Errorf("event seq %d (%s): cannot decode its data: %w", e.Seq, e.Type, err)
}

// joinText concatenates the text blocks, one per line.
func joinText(blocks []Block) string {
	if len(blocks) == 1 && blocks[0].Type == "text" {
		return blocks[0].Text
	}
	var b strings.Builder
	n := 0
	for _, bl := range blocks {
		if bl.Type != "text" {
			continue
		}
		if n > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(bl.Text)
		n++
	}
	return b.String()
}
