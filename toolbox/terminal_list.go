package toolbox

import (
	"context"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// TerminalListOutput is terminal_list's value.
type TerminalListOutput struct {
	Terminals []TerminalInfo `json:"terminals"`
}

var terminalListOutSchema = `{"type": "object", "properties": {"terminals": {"type": "array", "items": ` + terminalInfoSchema + `}}, "required": ["terminals"], "additionalProperties": false}`

func (s *set) terminalList() tools.Tool {
	return tools.New(terminalSpec(TerminalListName, `{"type": "object", "properties": {}, "additionalProperties": false}`, terminalListOutSchema),
		func(context.Context, tools.Call, struct{}) (TerminalListOutput, error) {
			m, err := s.terminals()
			if err != nil {
				return TerminalListOutput{}, err
			}
			out := TerminalListOutput{Terminals: []TerminalInfo{}}
			for _, i := range m.List() {
				out.Terminals = append(out.Terminals, terminalInfo(i))
			}
			return out, nil
		}, tools.Safe(), tools.WithRenderer(func(v any) string {
			l, ok := v.(TerminalListOutput)
			if !ok {
				return tools.RenderValue(v)
			}
			if len(l.Terminals) == 0 {
				return "This session has opened no terminals."
			}
			var b strings.Builder
			for _, t := range l.Terminals {
				status := t.Status
				if t.ExitCode != nil && t.Status != "running" {
					status += fmt.Sprintf(" (exit %d)", *t.ExitCode)
				}
				fmt.Fprintf(&b, "%s  %-16s %dx%d  %s\n", t.ID, status, t.Cols, t.Rows, t.Command)
			}
			return strings.TrimSuffix(b.String(), "\n")
		}))
}
