package toolbox

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
)

// ShellIn is the persistent shell tool's input.
type ShellIn struct {
	Command string `json:"command"`
}

const shellInSchema = `{
  "type": "object",
  "properties": {"command": {"type": "string", "minLength": 1, "description": "Shell command; cd and variables persist between calls."}},
  "required": ["command"],
  "additionalProperties": false
}`

func (s *set) shell() tools.Tool {
	spec := tools.Spec{Name: "shell", Description: doc("shell"), InputSchema: []byte(shellInSchema), OutputSchema: []byte(bashOutSchema), Timeout: DefaultBashTimeout}
	return tools.New(spec, s.runShell, tools.WithRenderer(func(v any) string { return renderBash(v.(BashOut)) }))
}

func (s *set) runShell(ctx context.Context, _ tools.Call, in ShellIn) (BashOut, error) {
	sh, err := s.sessionShell(ctx)
	if err != nil {
		return BashOut{}, err
	}
	o, err := sh.Run(ctx, in.Command)
	if err != nil {
		return BashOut{}, err
	}
	return BashOut{ExitCode: o.ExitCode, Stdout: string(o.Stdout), Stderr: string(o.Stderr), Truncated: o.Truncated, TimedOut: o.TimedOut,
		Note: s.readOnlyNote(ctx, o.ExitCode, o.Note)}, nil
}

func (s *set) sessionShell(ctx context.Context) (*sandbox.Shell, error) {
	ws, err := s.workspace(ctx)
	if err != nil {
		return nil, err
	}
	// One shell per session and mode: a shell keeps the mode it was
	// started in, so plan mode (read-only) gets a shell of its own.
	mode := guestMode(s.baseMode(ctx))
	key := tools.EnvFrom(ctx).SessionID + "\x00" + string(mode)
	s.mu.Lock()
	defer s.mu.Unlock()
	if sh, ok := s.shells[key]; ok {
		return sh, nil
	}
	sh, err := s.host.NewShellIn(s.scope(ctx, ws, mode))
	if err != nil {
		return nil, err
	}
	s.shells[key] = sh
	return sh, nil
}
