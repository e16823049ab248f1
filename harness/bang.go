package harness

import (
	"context"

	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/toolbox"
)

// Shell runs command in the session's workspace and sandbox mode as the
// bash tool would (the same host, quota and timeout), without a model
// call and without an event: the TUI's "!cmd". The user typed it, so no
// approval is asked; the mode is the session's, never wider.
func (s *Session) Shell(ctx context.Context, command string) (sandbox.Outcome, error) {
	host, err := s.home.Host()
	if err != nil {
		return sandbox.Outcome{}, err
	}
	st := s.Settings()
	mode, err := sandbox.ParseMode(st.Sandbox)
	if err != nil {
		return sandbox.Outcome{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, toolbox.DefaultBashTimeout)
	defer cancel()
	scope := sandbox.Scope{Workspace: st.Workspace, Mode: mode, Network: st.Network, Session: s.ID()}
	return toolbox.RunCommand(ctx, host, scope, command, st.Workspace)
}

// Shell runs a command in the current session (Session.Shell).
func (f *Front) Shell(ctx context.Context, command string) (sandbox.Outcome, error) {
	return f.cur().Shell(ctx, command)
}
