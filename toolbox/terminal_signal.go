package toolbox

import (
	"context"
	"sort"
	"strings"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox/term"
)

// TerminalSignalIn is terminal_signal's input.
type TerminalSignalIn struct {
	ID     string `json:"id"`
	Signal string `json:"signal"`
}

func signalNames() string {
	names := make([]string, 0, len(term.Signals))
	for n := range term.Signals {
		names = append(names, `"`+n+`"`)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

var terminalSignalInSchema = `{
  "type": "object",
  "properties": {
    "id": {"type": "string", "minLength": 1},
    "signal": {"type": "string", "enum": [` + signalNames() + `]}
  },
  "required": ["id", "signal"],
  "additionalProperties": false
}`

func (s *set) terminalSignal() tools.Tool {
	return tools.New(terminalSpec(TerminalSignalName, terminalSignalInSchema, terminalDoneSchema),
		func(ctx context.Context, _ tools.Call, in TerminalSignalIn) (TerminalDone, error) {
			m, err := s.terminals()
			if err != nil {
				return TerminalDone{}, err
			}
			if err := m.Signal(in.ID, in.Signal); err != nil {
				return TerminalDone{}, err
			}
			return TerminalDone{OK: true}, nil
		}, tools.WithRenderer(func(any) string { return "Sent. Read the screen with terminal_read to see what it did." }))
}
