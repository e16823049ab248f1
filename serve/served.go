package serve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// served is a session this server has open. Its turns run on the
// server's context, one after another: a prompt that arrives while one
// runs is queued as a follow-up (as in the TUI), and the runner takes it
// next.
type served struct {
	sess *harness.Session
	// leave ends the server's presence on the session's approval
	// service (Approvals.Join), which makes its requests wait.
	leave func()

	mu   sync.Mutex
	busy bool   // a runner (or a compaction) is at work
	err  string // why the last runner stopped early
}

// errElsewhere says another process runs the session.
type errElsewhere struct{ pid int }

func (e errElsewhere) Error() string {
	return fmt.Sprintf("the session is run by another ptc process (pid %d); it can be watched here but not driven until that one ends", e.pid)
}

// errClosed: the server is shutting down.
var errClosed = errors.New("the server is shutting down")

// options are the harness options of a session the server opens. The
// server answers its requests by id (newServed joins its approval
// service), so it puts them to no one itself.
func (s *Server) options(h *hub) harness.Options {
	o := s.cfg.Options
	o.Answerer = nil
	o.Observer = func(session.Event) { h.publish() }
	o.Resume, o.Settings, o.Override = "", session.Settings{}, nil
	return o
}

// create opens a new session with settings (checked and completed as the
// CLI does it).
func (s *Server) create(ctx context.Context, set session.Settings) (*served, error) {
	if err := harness.CheckSettings(set); err != nil {
		return nil, err
	}
	h := newHub()
	opts := s.options(h)
	opts.Settings = set
	sess, err := harness.Open(ctx, s.cfg.Home, opts)
	if err != nil {
		return nil, err
	}
	sv := s.newServed(sess)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		sv.close()
		return nil, errClosed
	}
	s.open[sess.ID()] = sv
	s.hubs[sess.ID()] = h
	return sv, nil
}

// acquire returns session id open in this server, opening it (and so
// repairing a turn a stopped process left open) when it is not.
func (s *Server) acquire(ctx context.Context, id string) (*served, error) {
	if sv := s.served(id); sv != nil {
		return sv, nil
	}
	s.openMu.Lock()
	defer s.openMu.Unlock()
	if sv := s.served(id); sv != nil {
		return sv, nil
	}
	if holder := s.cat().Holder(id); holder.Live && holder.PID != os.Getpid() {
		return nil, errElsewhere{holder.PID}
	}
	h := s.hubFor(id)
	if h == nil {
		return nil, errClosed
	}
	opts := s.options(h)
	opts.Resume = id
	sess, err := harness.Open(ctx, s.cfg.Home, opts)
	if errors.Is(err, session.ErrLocked) {
		return nil, errElsewhere{s.cat().Holder(id).PID}
	}
	if err != nil {
		return nil, err
	}
	sv := s.newServed(sess)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		sv.close()
		return nil, errClosed
	}
	s.open[id] = sv
	return sv, nil
}

// newServed joins the session's approval service, so its requests wait
// for a client's answer, and makes each request durable as it opens (it
// must survive this process: see Server.Close).
func (s *Server) newServed(sess *harness.Session) *served {
	ap := sess.Approvals()
	stop := ap.Subscribe(func(c tools.Change) {
		if c.Closed {
			return
		}
		if err := sess.Sync(context.WithoutCancel(s.ctx)); err != nil {
			s.cfg.Logf("session %s: %v", sess.ID(), err)
		}
	})
	leave := ap.Join()
	return &served{sess: sess, leave: func() { stop(); leave() }}
}

// waiting reports whether a request of the session waits for a person.
func (sv *served) waiting() bool { return len(sv.sess.Approvals().Pending()) > 0 }

// close closes the session and leaves its approval service.
func (sv *served) close() error {
	err := sv.sess.Close()
	sv.leave()
	return err
}

// prompt runs text as the session's next turn: now when it is idle, else
// queued behind the running one. It reports whether text was queued.
func (s *Server) prompt(sv *served, text string) (queued bool) {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	if sv.busy {
		sv.sess.Followup(text)
		return true
	}
	sv.busy = true
	sv.err = ""
	s.wg.Add(1)
	go s.drain(sv, &text)
	return false
}

// drain runs first (if any), then whatever was queued meanwhile and the
// notices of background subagents, until nothing is left.
func (s *Server) drain(sv *served, first *string) {
	defer s.wg.Done()
	var err error
	if first != nil {
		_, err = sv.sess.Run(s.ctx, *first)
	}
	for err == nil {
		if _, _, err = sv.sess.Settle(s.ctx); err != nil {
			break
		}
		sv.mu.Lock()
		if sv.sess.Queued() == 0 {
			sv.busy = false
			sv.mu.Unlock()
			return
		}
		sv.mu.Unlock()
	}
	sv.mu.Lock()
	sv.busy = false
	if !errors.Is(err, session.ErrClosed) && s.ctx.Err() == nil {
		sv.err = err.Error()
		s.cfg.Logf("session %s: %v", sv.sess.ID(), err)
	}
	sv.mu.Unlock()
}

// exclusive runs fn while no turn runs (a compaction, a settings change),
// or fails with harness.ErrBusy; prompts posted meanwhile are queued and
// run after it.
func (s *Server) exclusive(sv *served, fn func() error) error {
	sv.mu.Lock()
	if sv.busy {
		sv.mu.Unlock()
		return harness.ErrBusy
	}
	sv.busy = true
	sv.mu.Unlock()
	err := fn()
	sv.mu.Lock()
	defer sv.mu.Unlock()
	if sv.sess.Queued() > 0 {
		s.wg.Add(1)
		go s.drain(sv, nil)
		return err
	}
	sv.busy = false
	return err
}

// state is what a record says about a served session right now.
func (sv *served) state() (running bool, queued int, err string) {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	return sv.busy, sv.sess.Queued(), sv.err
}

// remove deletes session id: a served one is closed first (its running
// turn cancelled); one another process runs is refused.
func (s *Server) remove(id string) error {
	s.openMu.Lock()
	defer s.openMu.Unlock()
	if holder := s.cat().Holder(id); holder.Live && holder.PID != os.Getpid() {
		return errElsewhere{holder.PID}
	}
	s.mu.Lock()
	sv := s.open[id]
	delete(s.open, id)
	h := s.hubs[id]
	delete(s.hubs, id)
	s.mu.Unlock()
	if sv != nil {
		if err := sv.close(); err != nil {
			s.cfg.Logf("close session %s: %v", id, err)
		}
	}
	if h != nil {
		defer h.end("deleted")
	}
	if err := s.cat().Remove(id); err != nil {
		if errors.Is(err, session.ErrLocked) {
			return errElsewhere{s.cat().Holder(id).PID}
		}
		return err
	}
	// A stream that asked for the session's hub after the one above went
	// made a new one: it ends too, or it would wait for a session that
	// is no more.
	s.endHub(id, "deleted")
	if err := os.RemoveAll(s.cfg.Home.SpillDir(id)); err != nil {
		return fmt.Errorf("the session is removed but its spilled results are not: %w", err)
	}
	return nil
}

// endHub ends and forgets the hub of session id, if it has one.
func (s *Server) endHub(id, why string) {
	s.mu.Lock()
	h := s.hubs[id]
	delete(s.hubs, id)
	s.mu.Unlock()
	if h != nil {
		h.end(why)
	}
}
