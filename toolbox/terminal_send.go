package toolbox

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox/term"
)

// TerminalSendIn is terminal_send's input.
type TerminalSendIn struct {
	ID   string   `json:"id"`
	Text string   `json:"text,omitempty"`
	Keys []string `json:"keys,omitempty"`
}

var terminalSendInSchema = `{
  "type": "object",
  "properties": {
    "id": {"type": "string", "minLength": 1},
    "text": {"type": "string", "description": "Text to type, as is (no Enter is added)."},
    "keys": {"type": "array", "items": {"type": "string"}, "description": "Keys to press after the text, in order: ` + term.KeyNames + `."}
  },
  "required": ["id"],
  "additionalProperties": false
}`

func (s *set) terminalSend() tools.Tool {
	return tools.New(terminalSpec(TerminalSendName, terminalSendInSchema, terminalDoneSchema),
		func(ctx context.Context, _ tools.Call, in TerminalSendIn) (TerminalDone, error) {
			m, err := s.terminals()
			if err != nil {
				return TerminalDone{}, err
			}
			if in.Text == "" && len(in.Keys) == 0 {
				return TerminalDone{}, tools.Errorf(tools.CodeInvalidArgs, "give text, keys or both")
			}
			if err := m.Send(in.ID, in.Text, in.Keys); err != nil {
				return TerminalDone{}, err
			}
			return TerminalDone{OK: true}, nil
		}, tools.WithRenderer(func(any) string {
			return "Sent. Read the screen with terminal_read (wait_ms lets the program answer first)."
		}))
}
