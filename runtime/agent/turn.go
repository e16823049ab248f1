package agent

import (
	"context"
	"errors"

	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
)

// turnState accumulates what the Outcome reports.
type turnState struct {
	out Outcome
}

// stepEnd says how a step left its turn: "" continues with another step,
// anything else is a turn/end reason.
type stepEnd struct {
	reason  string
	cause   string
	failure string
	err     error
}

func (a *Agent) runTurn(ctx context.Context, first Input) (Outcome, error) {
	a.lastTurn++
	t := &turnState{out: Outcome{Turn: a.lastTurn}}
	if _, err := a.append(ctx, session.TypeTurnStart, session.TurnStart{Turn: t.out.Turn}, false); err != nil {
		return t.out, err
	}
	end, err := a.steps(ctx, t, first)
	if err != nil {
		return t.out, err
	}
	t.out.Reason, t.out.Cause, t.out.Failure, t.out.Err = end.reason, end.cause, end.failure, end.err
	data := session.TurnEnd{Turn: t.out.Turn, Reason: end.reason, Cause: end.cause, Failure: end.failure}
	_, err = a.append(ctx, session.TypeTurnEnd, data, true)
	return t.out, err
}

// steps runs steps until one ends the turn.
func (a *Agent) steps(ctx context.Context, t *turnState, first Input) (stepEnd, error) {
	pending := []Input{first}
	for step := 1; ; step++ {
		if ctx.Err() != nil {
			return aborted(ctx), nil
		}
		if a.cfg.MaxSteps > 0 && step > a.cfg.MaxSteps {
			return stepEnd{reason: session.ReasonMaxSteps}, nil
		}
		pending = append(pending, a.inbox.claimSteps()...)
		input, reject, err := a.cfg.Hooks.preStep(ctx, t.out.Turn, step, pending)
		if err != nil {
			return stepEnd{reason: session.ReasonError, failure: "pre-step hook: " + err.Error(), err: err}, nil
		}
		if reject {
			return stepEnd{reason: session.ReasonBlocked}, nil
		}
		if why := a.tooLarge(input); why != "" {
			return stepEnd{reason: session.ReasonError, failure: why, err: errors.New(why)}, nil
		}
		pending = nil
		t.out.Steps = step
		a.refresh(ctx)
		end, err := a.runStep(ctx, t, step, input)
		if err != nil {
			return end, err
		}
		if end.reason == session.ReasonCompleted {
			pending = a.cfg.Hooks.turnStopping(ctx, t.out.Turn)
			if _, steps := a.inbox.Pending(); len(pending) > 0 || steps > 0 {
				continue
			}
		}
		if end.reason != "" {
			return end, nil
		}
	}
}

// refresh takes a changed tool set (Config.Refresh) before a step.
func (a *Agent) refresh(ctx context.Context) {
	if a.cfg.Refresh == nil {
		return
	}
	if system, tools, changed := a.cfg.Refresh(ctx); changed {
		a.cfg.System, a.cfg.Tools = system, tools
	}
}

// runStep brackets one step with step/start and step/end and logs the
// input that enters with it.
func (a *Agent) runStep(ctx context.Context, t *turnState, step int, input []Input) (stepEnd, error) {
	mark := session.StepMark{Turn: t.out.Turn, Step: step}
	if _, err := a.append(ctx, session.TypeStepStart, mark, false); err != nil {
		return stepEnd{}, err
	}
	if _, err := a.snapshot(ctx); err != nil {
		return stepEnd{}, err
	}
	for _, in := range input {
		msg := session.UserMessage{ID: a.cfg.NewID(), Content: session.TextBlocks(in.Text), Source: in.Source}
		if _, err := a.append(ctx, session.TypeUserMessage, msg, false); err != nil {
			return stepEnd{}, err
		}
	}
	end, err := a.step(ctx, t, step)
	if err != nil {
		return end, err
	}
	_, err = a.append(ctx, session.TypeStepEnd, mark, true)
	return end, err
}

// snapshot appends the runtime context when it changed since the last
// snapshot on the surface (or a summary replaced that one), and reports
// whether it did.
func (a *Agent) snapshot(ctx context.Context) (bool, error) {
	if a.cfg.Context == nil {
		return false, nil
	}
	text := a.cfg.Context().Text()
	if !prompt.SnapshotDue(a.log.Events(), text) {
		return false, nil
	}
	msg := session.UserMessage{ID: a.cfg.NewID(), Content: session.TextBlocks(text), Source: prompt.SnapshotSource()}
	_, err := a.append(ctx, session.TypeUserMessage, msg, false)
	return err == nil, err
}

func aborted(ctx context.Context) stepEnd {
	cause := "user"
	if c := context.Cause(ctx); c != nil && c != context.Canceled {
		cause = c.Error()
	}
	return stepEnd{reason: session.ReasonAborted, cause: cause}
}
