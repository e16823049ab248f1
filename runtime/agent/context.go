package agent

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/compact"
	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// contextLog presents the agent's appender to the compaction manager, so
// its events reach the observer like the loop's own.
type contextLog struct{ a *Agent }

func (l contextLog) Events() []session.Event { return l.a.log.Events() }

func (l contextLog) Append(ctx context.Context, typ string, data any, durable bool) (session.Event, error) {
	return l.a.append(ctx, typ, data, durable)
}

// fit makes the request about to be sent fit the context window (see
// compact.Manager.Fit; refused is the overflow failure of this same
// request, if it was just refused), sends the runtime context again when a summary
// replaced it, and logs the meter's reading durably: the last event before
// the request, so everything the request is built from is on disk when it
// goes out. A non-empty refusal means the request must not be sent.
func (a *Agent) fit(ctx context.Context, t *turnState, step int, req llm.Request, refused *llm.Error) (llm.Request, string, error) {
	f, err := a.context.Fit(ctx, t.out.Turn, step, req, refused)
	if err != nil {
		return req, "", err
	}
	if f.Compaction != nil {
		t.out.Usage.Add(f.Compaction.Usage)
		sent, err := a.snapshot(ctx)
		if err != nil {
			return req, "", err
		}
		if sent {
			if err := a.context.Remeasure(&f); err != nil {
				return req, "", err
			}
		}
	}
	if f.Refusal != "" {
		return f.Request, f.Refusal, nil // not sent, so no reading to log
	}
	cfg := a.context.Config()
	m := session.ContextMeter{Turn: t.out.Turn, Step: step, Tokens: f.Reading.Tokens, Window: cfg.Window,
		Basis: f.Reading.Basis, Reported: f.Reading.Reported}
	if cfg.Auto {
		m.Threshold = cfg.ThresholdTokens()
	}
	if _, err := a.append(ctx, session.TypeContextMeter, m, true); err != nil {
		return req, "", err
	}
	return f.Request, f.Refusal, nil
}

// tooLarge is the refusal of the first input that could never fit the
// context window ("" when all fit).
func (a *Agent) tooLarge(input []Input) string {
	for _, in := range input {
		if why := a.context.InputTooLarge(in.Text); why != "" {
			return why
		}
	}
	return ""
}

// Compact summarises the session now, between turns (ptc session compact,
// /compact in the interactive session); it works even when the context is
// already over the threshold or the window. The Result says how it went;
// the error is for a log that cannot be written.
func (a *Agent) Compact(ctx context.Context) (compact.Result, error) {
	return a.context.Compact(ctx)
}
