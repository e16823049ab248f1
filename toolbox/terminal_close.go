package toolbox

import (
	"context"
	"fmt"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// TerminalCloseIn is terminal_close's input.
type TerminalCloseIn struct {
	ID string `json:"id"`
}

func (s *set) terminalClose() tools.Tool {
	return tools.New(terminalSpec(TerminalCloseName, `{"type": "object", "properties": {"id": {"type": "string", "minLength": 1}}, "required": ["id"], "additionalProperties": false}`, terminalInfoSchema),
		func(ctx context.Context, _ tools.Call, in TerminalCloseIn) (TerminalInfo, error) {
			m, err := s.terminals()
			if err != nil {
				return TerminalInfo{}, err
			}
			info, err := m.Close(in.ID, session.EndedByModel)
			if err != nil {
				return TerminalInfo{}, err
			}
			return terminalInfo(info), nil
		}, tools.WithRenderer(func(v any) string {
			i, ok := v.(TerminalInfo)
			if !ok || i.ExitCode == nil {
				return tools.RenderValue(v)
			}
			return fmt.Sprintf("Closed terminal %s; its program ended with exit code %d.", i.ID, *i.ExitCode)
		}))
}
