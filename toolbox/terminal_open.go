package toolbox

import (
	"context"
	"fmt"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox/term"
)

// TerminalOpenIn is terminal_open's input.
type TerminalOpenIn struct {
	Command string `json:"command,omitempty"`
	Cols    int    `json:"cols,omitempty"`
	Rows    int    `json:"rows,omitempty"`
}

var terminalOpenInSchema = fmt.Sprintf(`{
  "type": "object",
  "properties": {
    "command": {"type": "string", "description": "Command line to run on the terminal (default: an interactive shell)."},
    "cols": {"type": "integer", "minimum": 10, "maximum": %d, "description": "Width in columns (default %d)."},
    "rows": {"type": "integer", "minimum": 2, "maximum": %d, "description": "Height in rows (default %d)."}
  },
  "additionalProperties": false
}`, term.MaxCols, term.DefaultCols, term.MaxRows, term.DefaultRows)

func (s *set) terminalOpen() tools.Tool {
	return tools.New(terminalSpec(TerminalOpenName, terminalOpenInSchema, terminalInfoSchema), s.runTerminalOpen,
		tools.WithRenderer(func(v any) string {
			i, ok := v.(TerminalInfo)
			if !ok {
				return tools.RenderValue(v)
			}
			return fmt.Sprintf("Opened terminal %s (%dx%d) running %s. Send keys with terminal_send, read the screen with terminal_read.", i.ID, i.Cols, i.Rows, i.Command)
		}))
}

func (s *set) runTerminalOpen(ctx context.Context, call tools.Call, in TerminalOpenIn) (TerminalInfo, error) {
	m, err := s.terminals()
	if err != nil {
		return TerminalInfo{}, err
	}
	ws, err := s.workspace(ctx)
	if err != nil {
		return TerminalInfo{}, err
	}
	// A terminal's program is always confined: danger-full-access gets
	// the writable sandbox the guest-only tools get.
	mode := guestMode(s.baseMode(ctx))
	scope := s.scope(ctx, ws, mode)
	shell, err := s.terminalShell(scope.Programs)
	if err != nil {
		return TerminalInfo{}, err
	}
	argv, shown := []string{shell, "-i"}, shell+" -i"
	if in.Command != "" {
		argv, shown = []string{shell, "-c", in.Command}, in.Command
	}
	info, err := m.Open(term.OpenSpec{Command: shown, CallID: call.ID, Mode: string(mode), Cols: in.Cols, Rows: in.Rows,
		Start: s.startTerminal(scope, argv)})
	if err != nil {
		return TerminalInfo{}, err
	}
	return terminalInfo(info), nil
}

// terminalShell is the shell a terminal runs its command with: bash, or
// sh, whichever the preset lets host programs use.
func (s *set) terminalShell(programs []string) (string, error) {
	for _, sh := range []string{"bash", "sh"} {
		if s.host.HostProgramAllowed(programs, sh) {
			return sh, nil
		}
	}
	return "", tools.Errorf(tools.CodeSandboxDenied, "terminals run their command with bash or sh as a confined host program, and this session allows neither (or bubblewrap is missing)")
}
