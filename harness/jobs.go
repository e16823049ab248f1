package harness

import (
	"context"
	"errors"

	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/sandbox/jobs"
	"github.com/ptc-dev/ptc/sandbox/term"
)

// openJobs gives the session its job and terminal tables, with the jobs
// and terminals of earlier runs restored from events (those ptc's death
// cut off are recorded as ended now). Both log through the session, not
// through a composition's agent, so a settings change leaves them be.
func (s *Session) openJobs(ctx context.Context, sc *scope, events []session.Event) error {
	record := func(typ string, data any) error { return s.record(ctx, typ, data) }
	m, err := jobs.New(jobs.Config{Dir: s.home.SpillDir(s.Header().ID), Record: record})
	if err != nil {
		return err
	}
	sc.jobs, sc.terms = m, term.NewManager(term.Config{Record: record})
	return errors.Join(sc.jobs.Restore(events), sc.terms.Restore(events))
}

// closeJobs kills the session's jobs and closes its terminals (each
// recorded as ended by the session), then releases its network
// namespace. It runs while the log is still open.
func (s *Session) closeJobs() {
	if s.scope == nil || s.scope.jobs == nil {
		return
	}
	s.scope.jobs.Close()
	s.scope.terms.CloseAll()
	if host, err := s.home.Host(); err == nil {
		host.EndSession(s.Header().ID)
	}
}

// pendingJobs are the running jobs' lines for the runtime context.
func (sc *scope) pendingJobs() []string {
	if sc.jobs == nil {
		return nil
	}
	return sc.jobs.Pending()
}

// jobNotices is the pre-step hook that announces, at each step
// boundary, the jobs that ended by themselves since the last one (once
// each, and not those whose end the model already saw).
type jobNotices struct{ sc *scope }

// JobNoticeSource is the source of a job's end notice.
var JobNoticeSource = session.Source{Kind: "plugin", Name: "jobs", Form: "notice"}

func (h jobNotices) PreStep(_ context.Context, _, _ int, in []agent.Input) ([]agent.Input, bool, error) {
	if h.sc.jobs == nil {
		return in, false, nil
	}
	for _, n := range h.sc.jobs.TakeNotices() {
		in = append(in, agent.Input{Text: n.Text(), Source: JobNoticeSource})
	}
	return in, false, nil
}

// Jobs lists the session's background jobs, oldest first (the TUI's
// /jobs view).
func (s *Session) Jobs() []jobs.Info {
	if s.scope.jobs == nil {
		return nil
	}
	return s.scope.jobs.List()
}

// RunningJobs lists the jobs still running (the TUI's status line).
func (s *Session) RunningJobs() []jobs.Info {
	if s.scope.jobs == nil {
		return nil
	}
	return s.scope.jobs.Running()
}

// KillJob kills a job as the user (the TUI's /jobs view).
func (s *Session) KillJob(id string) (jobs.Info, error) {
	if s.scope.jobs == nil {
		return jobs.Info{}, jobs.ErrClosed
	}
	return s.scope.jobs.Kill(id, session.EndedByUser)
}

// JobTail is the end of a job's output (the TUI's /jobs view), at most
// n bytes, without moving the model's reading position.
func (s *Session) JobTail(id string, n int64) (string, error) {
	if s.scope.jobs == nil {
		return "", jobs.ErrClosed
	}
	return s.scope.jobs.Tail(id, n)
}

// Jobs lists the current session's background jobs (a front end's jobs
// view; see Session.Jobs).
func (f *Front) Jobs() []jobs.Info { return f.cur().Jobs() }

// KillJob kills one of the current session's jobs as the user.
func (f *Front) KillJob(id string) (jobs.Info, error) { return f.cur().KillJob(id) }

// JobTail is the end of one of the current session's jobs' output.
func (f *Front) JobTail(id string, n int64) (string, error) { return f.cur().JobTail(id, n) }
