package sandbox

import (
	"context"
	"sync"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// Shell is a persistent guest shell: one long-lived instance whose
// interpreter keeps its state (cwd, variables, functions) from one command
// to the next. Commands run one at a time. When a command is stopped
// (timeout, output limit) the instance dies with it and the next command
// starts a fresh one; its Outcome.Note says the state was lost.
type Shell struct {
	h    *Host
	key  poolKey
	opts callOptions

	mu     sync.Mutex
	in     *instance
	closed bool
}

// NewShell returns a persistent shell on workspace in mode. No instance
// exists until the first command.
func (h *Host) NewShell(workspace string, mode Mode) (*Shell, error) {
	return h.NewShellIn(Scope{Workspace: workspace, Mode: mode})
}

// NewShellIn is NewShell for a full Scope.
func (h *Host) NewShellIn(scope Scope) (*Shell, error) {
	key, err := newKey(scope)
	if err != nil {
		return nil, err
	}
	return &Shell{h: h, key: key, opts: callOptions{network: scope.Network, programs: scope.Programs}}, nil
}

// Run executes one shell command in the persistent instance.
func (s *Shell) Run(ctx context.Context, command string) (Outcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Outcome{}, errShellClosed
	}
	leave, err := s.h.enter()
	if err != nil {
		return Outcome{}, err
	}
	defer leave()
	done, busy := s.h.acquire(ctx)
	if busy != nil {
		return *busy, nil
	}
	defer done()
	if s.in == nil {
		in, err := s.h.pool(s.key).get(ctx)
		if err != nil {
			return Outcome{}, err
		}
		s.in = in
	}
	o, err := s.h.call(ctx, s.in, s.key, s.opts, proto.Request{Op: proto.OpShell, Command: command, Persistent: true})
	if err != nil || o.TimedOut || o.Truncated || o.ExitCode == ExitStopped || o.ExitCode == ExitOutOfMemory || o.ExitCode == ExitCrashed || s.in.mod.IsClosed() {
		go s.in.release()
		s.in = nil
		o.Note = joinNote(o.Note, "the shell was restarted, so its state (cwd, variables) is lost")
	}
	return o, err
}

// Close releases the instance.
func (s *Shell) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.in != nil {
		s.in.release()
		s.in = nil
	}
}
