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
// joined with a newline. Long sessions are decoded in parallel ranges; the
// result is the same as a sequential pass.
//
// An error means a surface event's data does not decode; it names the seq
// (the earliest such event).
func DeriveMessages(events []Event) ([]llm.Message, error) {
	parts := runtime.GOMAXPROCS(0)
	if len(events) < parallelFrom || parts < 2 {
		return deriveRange(events)
	}
	results := make([][]llm.Message, parts)
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
	total := 0
	for p := range parts {
		if errs[p] != nil {
			return nil, errs[p]
		}
		total += len(results[p])
	}
	out := make([]llm.Message, 0, total)
	for _, r := range results {
		out = append(out, r...)
	}
	return out, nil
}

// deriveRange is the sequential projection of one range of events.
func deriveRange(events []Event) ([]llm.Message, error) {
	n := 0
	for i := range events {
		switch events[i].Type {
		case TypeUserMessage, TypeAssistantMessage, TypeToolResult:
			n++
		}
	}
	out := make([]llm.Message, 0, n)
	for i := range events {
		e := &events[i]
		var m llm.Message
		var err error
		switch e.Type {
		case TypeUserMessage:
			m, err = projectUser(e.Data)
		case TypeAssistantMessage:
			m, err = projectAssistant(e.Data)
		case TypeToolResult:
			m, err = projectResult(e.Data)
		default:
			continue
		}
		if err != nil {
			return nil, surfaceError(e, err)
		}
		if m.Role != "" {
			out = append(out, m)
		}
	}
	return out, nil
}

// projectUser, projectAssistant and projectResult turn one surface event
// into its message (Role empty: nothing to project). They try the fast
// reader first and let encoding/json decide whatever it declines.
func projectUser(data []byte) (llm.Message, error) {
	blocks, ok := fastUser(data)
	if !ok {
		var d struct {
			Content []Block `json:"content"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			return llm.Message{}, err
		}
		blocks = d.Content
	}
	return llm.Message{Role: llm.RoleUser, Content: joinText(blocks)}, nil
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
