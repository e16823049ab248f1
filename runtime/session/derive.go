package session

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// DeriveMessages projects the surface of a session into the message list
// of a model request. Only user/message (→ user), assistant/message (→
// assistant; one with neither content nor tool calls projects to nothing)
// and tool/result (→ tool) are model-visible; every other event is skipped
// without decoding its data, which keeps a million-event session fast.
// Text blocks of one message are joined with a newline.
//
// An error means a surface event's data does not decode; it names the seq.
func DeriveMessages(events []Event) ([]llm.Message, error) {
	var out []llm.Message
	for i := range events {
		e := &events[i]
		switch e.Type {
		case TypeUserMessage:
			var d struct {
				Content []Block `json:"content"`
			}
			if err := json.Unmarshal(e.Data, &d); err != nil {
				return nil, surfaceError(e, err)
			}
			out = append(out, llm.Message{Role: llm.RoleUser, Content: joinText(d.Content)})
		case TypeAssistantMessage:
			var d struct {
				Message llm.Message `json:"message"`
			}
			if err := json.Unmarshal(e.Data, &d); err != nil {
				return nil, surfaceError(e, err)
			}
			m := d.Message
			if m.Content == "" && len(m.ToolCalls) == 0 {
				continue
			}
			out = append(out, llm.Message{Role: llm.RoleAssistant, Content: m.Content, Reasoning: m.Reasoning, ToolCalls: m.ToolCalls})
		case TypeToolResult:
			var d struct {
				CallID  string  `json:"callId"`
				Name    string  `json:"name"`
				Content []Block `json:"content"`
			}
			if err := json.Unmarshal(e.Data, &d); err != nil {
				return nil, surfaceError(e, err)
			}
			out = append(out, llm.Message{Role: llm.RoleTool, ToolCallID: d.CallID, Name: d.Name, Content: joinText(d.Content)})
		}
	}
	return out, nil
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
