package harness

import (
	"context"
	"errors"
	"fmt"
	"github.com/ptc-dev/ptc/runtime/hooks"
	"sync/atomic"

	"github.com/ptc-dev/ptc/presets"
	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/goal"
	"github.com/ptc-dev/ptc/runtime/plan"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox/jobs"
	"github.com/ptc-dev/ptc/sandbox/term"
)

// scope is what a session's own tools share for the life of the session,
// across the compositions a settings change rebuilds: plan mode, the
// goal, the children it started and the approval service (its grants and
// open requests; each composition views it under its policy). Tools built
// without a session (ptc tools, ptc sdk, ptc exec) get a detached scope,
// in which they list but refuse to run.
type scope struct {
	plan      *plan.Mode
	goals     *goal.Keeper
	approvals *tools.Approvals
	leave     func()    // detaches Options.Answerer from approvals
	children  *children // nil when detached
	// stop is set when exit_plan_mode found nobody to approve the plan:
	// the next step is refused and the run ends there.
	stop atomic.Bool
	// approve approves plans without asking (Options.ApprovePlan).
	approve bool
	// jobs and terms are the session's background jobs and terminals
	// (nil when detached): they outlive compositions, end with the
	// session (jobs.go).
	jobs  *jobs.Manager
	terms *term.Manager
	// hookMemo keeps the user's answers about project hooks for the
	// session (hooks.go).
	hookMemo hooks.Memo
}

func detachedScope() *scope {
	return &scope{plan: plan.New(false), goals: goal.NewKeeper(true), approvals: tools.NewApprovals(tools.PolicyNever), leave: func() {}}
}

// stopStep is the pre-step hook that ends the run after a headless
// exit_plan_mode: the turn ends "blocked" with the plan shown.
type stopStep struct{ sc *scope }

func (h stopStep) PreStep(_ context.Context, _, _ int, in []agent.Input) ([]agent.Input, bool, error) {
	return in, h.sc.stop.Load(), nil
}

// hooks are the session's loop hooks: the caller's, then stopStep.
func (sc *scope) hooks(h agent.Hooks) agent.Hooks {
	h.PreStep = append(append([]agent.PreStepHook(nil), h.PreStep...), jobNotices{sc}, stopStep{sc})
	return h
}

// openScope restores plan mode, the goal and the session grants from the
// log, attends the approval service with Options.Answerer, and switches
// plan mode when asked (Options.Plan, or the preset's default for a new
// session), logging the switch. It runs before the first composition.
func (s *Session) openScope(ctx context.Context, preset *presets.Preset, fresh bool) error {
	events := s.log.Events()
	def := preset.Plan
	if !fresh {
		def = false
	}
	active, err := plan.Restore(events, def)
	if err != nil {
		return err
	}
	sc := &scope{plan: plan.New(active), goals: goal.NewKeeper(s.Header().Depth == 0), approve: s.opts.ApprovePlan,
		approvals: tools.NewApprovals(tools.PolicyAsk), leave: func() {}}
	if err := sc.goals.Restore(events); err != nil {
		return err
	}
	if err := sc.approvals.Restore(events); err != nil {
		return err
	}
	if s.opts.Answerer != nil {
		sc.leave = sc.approvals.Attend(s.opts.Answerer)
	}
	s.feed.subscribe(sc.goals.Observe)
	sc.children = newChildren(s)
	if err := sc.children.restore(events); err != nil {
		return err
	}
	if err := s.openJobs(ctx, sc, events); err != nil {
		return err
	}
	s.scope = sc
	by := plan.ByUser
	want := active
	if p := s.opts.Plan; p != nil {
		want = *p
	} else if fresh && active {
		by = plan.ByPreset
	}
	if fresh && want || want != active {
		sc.plan.Set(want)
		return s.record(ctx, session.TypePlanMode, session.PlanMode{Active: want, By: by})
	}
	return nil
}

// record appends one event durably, outside any turn's own appends.
func (s *Session) record(ctx context.Context, typ string, data any) error {
	_, err := s.log.AppendDurable(context.WithoutCancel(ctx), typ, data)
	return err
}

// Approvals is the session's approval service under the policy in force:
// the registry of open requests (approvals, questions, plans) that front
// ends list, subscribe to and answer by id, and the session's grants.
// Options.Answerer attends it from the start; a server joins it with
// Join or Attend.
func (s *Session) Approvals() *tools.Approvals {
	return s.scope.approvals.WithPolicy(tools.Policy(s.Settings().Approval))
}

// Sink logs events of the session outside a turn (an MCP server's
// approval at start-up), durably.
func (s *Session) Sink() tools.Sink { return recordSink{s} }

type recordSink struct{ s *Session }

func (r recordSink) Emit(typ string, data any) error {
	return r.s.record(context.Background(), typ, data)
}

// Followup queues user input while a turn runs (the TUI's prompt): it
// becomes the next turn, ahead of any further goal round, since user
// input takes precedence; Settle runs it before waiting on. Between
// turns, call Run instead (or RunGoal, which runs what is queued first).
func (s *Session) Followup(text string) {
	s.inbox.Followup(text)
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Queued is how many follow-ups wait for a turn.
func (s *Session) Queued() int {
	turns, _ := s.inbox.Pending()
	return turns
}

// TakeFollowups removes the follow-ups no turn has taken yet and returns
// their text, oldest first: after a cancel the TUI puts them back into
// its input rather than sending them.
func (s *Session) TakeFollowups() []string {
	var out []string
	for _, in := range s.inbox.TakeFollowups() {
		out = append(out, in.Text)
	}
	return out
}

// Settle waits for the background subagents still running; each one's
// completion notice starts a turn of its own when none is running (and
// joins the running turn otherwise), so a headless run does not end with
// work left going on. Follow-ups queued meanwhile run first. ran is false
// when no turn was needed.
func (s *Session) Settle(ctx context.Context) (out agent.Outcome, ran bool, err error) {
	c := s.scope.children
	for {
		if turns, steps := s.inbox.Pending(); turns+steps > 0 {
			if out, err = s.run(ctx, nil, true); err != nil {
				return out, true, err
			}
			ran = true
			continue
		}
		if c.running() == 0 || ctx.Err() != nil {
			return out, ran, nil
		}
		select {
		case <-c.done:
		case <-s.wake:
		case <-ctx.Done():
		}
	}
}

// PlanMode reports whether plan mode is on.
func (s *Session) PlanMode() bool { return s.scope.plan.Active() }

// SetPlanMode switches plan mode (--plan, /plan, the TUI's toggle) and
// logs plan/mode. It may be called while a turn runs: every later call
// sees the new mode.
func (s *Session) SetPlanMode(ctx context.Context, on bool) error {
	if !s.scope.plan.Set(on) {
		return nil
	}
	if err := s.record(ctx, session.TypePlanMode, session.PlanMode{Active: on, By: plan.ByUser}); err != nil {
		s.scope.plan.Set(!on)
		return err
	}
	return nil
}

// PlanStopped reports whether the last run stopped at a plan nobody could
// approve (a headless exit_plan_mode): the plan is in its tool/call.
func (s *Session) PlanStopped() bool { return s.scope.stop.Load() }

// Goal returns the session's goal, if it has one (a finished one too).
func (s *Session) Goal() (session.Goal, bool) { return s.scope.goals.Goal() }

// SetGoal starts a goal as the user (ptc run --goal, /goal): it is logged
// as goal/create; the rounds run with RunGoal (or after the next Run).
// maxRounds 0 means the default cap.
func (s *Session) SetGoal(ctx context.Context, objective string, maxRounds int) (session.Goal, error) {
	return s.changeGoal(ctx, goal.Request{Action: goal.ActionCreate, Objective: objective, MaxRounds: maxRounds})
}

// UpdateGoal changes the goal as the user: pause, resume, complete, or
// edit (objective and/or maxRounds).
func (s *Session) UpdateGoal(ctx context.Context, action, objective string, maxRounds int) (session.Goal, error) {
	if _, ok := s.Goal(); !ok {
		return session.Goal{}, goal.ErrNoGoal
	}
	return s.changeGoal(ctx, goal.Request{Action: action, Objective: objective, MaxRounds: maxRounds})
}

func (s *Session) changeGoal(ctx context.Context, req goal.Request) (session.Goal, error) {
	if s.Header().Depth > 0 {
		return session.Goal{}, errors.New("a subagent session cannot have a goal; set it in the root session")
	}
	req.By = goal.ByUser
	g, err := s.scope.goals.Change(func(typ string, data any) error { return s.record(ctx, typ, data) }, req)
	if te := (*tools.Error)(nil); errors.As(err, &te) {
		return g, fmt.Errorf("goal: %s", te.Message)
	}
	return g, err
}

// RunGoal runs goal rounds while the goal is active (what Run does after
// its turn), for a goal just set or a resumed session continuing one.
// Follow-ups queued with Followup run first, as before every round. With
// nothing queued and no active goal it returns at once with a zero
// Outcome.
func (s *Session) RunGoal(ctx context.Context) (agent.Outcome, error) {
	return s.run(ctx, nil, false)
}

// rounds continues the goal after out: queued user input first, then a
// round while the goal is active; the cap ends it. A turn that failed,
// was cancelled or stopped at a plan ends the rounds (the goal stays
// active, so a resumed session continues it).
func (s *Session) rounds(ctx context.Context, a *agent.Agent, out agent.Outcome, ran bool) (agent.Outcome, error) {
	for !ran || goesOn(out) {
		if ctx.Err() != nil || s.scope.stop.Load() {
			return out, nil
		}
		if next, queued, err := a.RunQueued(ctx); err != nil || queued {
			out, ran = next, true
			if err != nil {
				return out, err
			}
			continue
		}
		r, ok, err := s.scope.goals.StartRound(func(typ string, data any) error { return s.record(ctx, typ, data) })
		if err != nil || !ok {
			return out, err
		}
		g, _ := s.Goal()
		if out, err = a.RunInput(ctx, agent.Input{Text: goal.RoundPrompt(g, r), Source: goal.RoundSource()}); err != nil {
			return out, err
		}
		ran = true
	}
	return out, nil
}

// goesOn reports whether a turn that ended so lets the goal go on.
func goesOn(out agent.Outcome) bool {
	switch out.Reason {
	case session.ReasonCompleted, session.ReasonMaxSteps, session.ReasonMaxTokens:
		return true
	}
	return false
}

// Children lists the sessions started as subagents of session id (from
// the listing records, so a running child shows as such), oldest first.
func (h *Home) Children(ctx context.Context, id string) ([]session.Summary, error) {
	all, err := h.Sessions().List(ctx, session.ListOptions{})
	if err != nil {
		return nil, err
	}
	var out []session.Summary
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].Header.Parent == id {
			out = append(out, all[i])
		}
	}
	return out, nil
}
