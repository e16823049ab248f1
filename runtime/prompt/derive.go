package prompt

import (
	"encoding/json"
	"fmt"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// deriveMessages projects the surface (user/message, assistant/message,
// tool/result) into request messages, verbatim and in log order. An
// assistant message with nothing in it projects to nothing.
func deriveMessages(events []session.Event) ([]llm.Message, error) {
	msgs := []llm.Message{}
	for _, ev := range events {
		switch ev.Type {
		case session.TypeUserMessage:
			var m session.UserMessage
			if err := json.Unmarshal(ev.Data, &m); err != nil {
				return nil, badEvent(ev, err)
			}
			msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: blocksText(m.Content)})
		case session.TypeAssistantMessage:
			var m session.AssistantMessage
			if err := json.Unmarshal(ev.Data, &m); err != nil {
				return nil, badEvent(ev, err)
			}
			if m.Message.Content == "" && m.Message.Reasoning == "" && len(m.Message.ToolCalls) == 0 {
				continue
			}
			msg := m.Message
			msg.Role = llm.RoleAssistant
			msgs = append(msgs, msg)
		case session.TypeToolResult:
			var r session.ToolResult
			if err := json.Unmarshal(ev.Data, &r); err != nil {
				return nil, badEvent(ev, err)
			}
			msgs = append(msgs, llm.Message{Role: llm.RoleTool, ToolCallID: r.CallID, Name: r.Name, Content: blocksText(r.Content)})
		}
	}
	return msgs, nil
}

func badEvent(ev session.Event, err error) error {
	return fmt.Errorf("%s at seq %d is not valid: %w", ev.Type, ev.Seq, err)
}
