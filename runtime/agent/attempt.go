package agent

import (
	"context"
	"errors"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
)

// attempts sends the step's request until it succeeds, the retry policy
// gives up, or ctx ends. It returns the response to record (nil when there
// is nothing to record) and, when the turn must end, why.
//
// A context-overflow failure is retried once per step, right away, after
// the request was made to fit (see fit): that is the recovery, not a
// retry policy matter.
func (a *Agent) attempts(ctx context.Context, t *turnState, step int) (*llm.Response, stepEnd, error) {
	recovered := false
	var refused *llm.Error // the overflow to recover from in the next attempt
	for attempt := 1; ; attempt++ {
		req, err := a.prepareRequest(ctx, t.out.Turn, step)
		if err != nil {
			return nil, stepEnd{}, err
		}
		req, refusal, err := a.fit(ctx, t, step, req, refused)
		if err != nil {
			return nil, stepEnd{}, err
		}
		if refusal != "" && refused != nil {
			// Recovery could not help: the provider's own words first.
			return nil, stepEnd{reason: session.ReasonError, failure: refused.Error() + "; " + refusal, err: refused}, nil
		}
		if refusal != "" {
			return nil, stepEnd{reason: session.ReasonError, failure: refusal, err: errors.New(refusal)}, nil
		}
		resp, streamErr, err := a.stream(ctx, req, t.out.Turn, step, attempt)
		if err != nil {
			return nil, stepEnd{}, err
		}
		if streamErr == nil {
			a.context.Meter().Observe(req, resp.Usage)
			return resp, stepEnd{}, nil
		}
		if ctx.Err() != nil {
			return resp, aborted(ctx), nil
		}
		failure := llm.AsError(streamErr)
		delay, retry := a.cfg.Retry.Next(attempt, failure)
		refused = nil
		if !retry && !recovered && failure.Kind == llm.ErrContextOverflow && a.context.Config().Auto {
			refused, recovered, retry, delay = failure, true, true, 0
		}
		retry, delay = a.cfg.Hooks.requestError(ctx, t.out.Turn, step, attempt, failure, retry, delay)
		rec := session.AssistantAttempt{Turn: t.out.Turn, Step: step, Attempt: attempt,
			Failure: failure.Error(), Kind: string(failure.Kind), Status: failure.Status}
		if _, err := a.append(ctx, session.TypeAssistantAttempt, rec, !retry); err != nil {
			return nil, stepEnd{}, err
		}
		if !retry {
			return nil, stepEnd{reason: session.ReasonError, failure: failure.Error(), err: failure}, nil
		}
		note := session.LLMRetry{Turn: t.out.Turn, Step: step, Attempt: attempt, Code: string(failure.Kind), DelayMs: delay.Milliseconds(), Reason: failure.Message}
		if _, err := a.append(ctx, session.TypeLLMRetry, note, true); err != nil {
			return nil, stepEnd{}, err
		}
		if a.cfg.Sleep(ctx, delay) != nil {
			return nil, aborted(ctx), nil
		}
	}
}

// prepareRequest logs a request/header when needed and rebuilds the
// request from the log, so what is sent is exactly what the log can
// reproduce (fit then makes it durable).
func (a *Agent) prepareRequest(ctx context.Context, turn, step int) (llm.Request, error) {
	opts, err := a.cfg.Hooks.request(ctx, turn, step, a.cfg.Options)
	if err != nil {
		return llm.Request{}, errors.Join(errors.New("request hook failed"), err)
	}
	want := session.RequestHeader{Provider: a.cfg.Provider.Name(), Model: a.cfg.Model, System: a.cfg.System, Options: opts}
	if a.cfg.Tools != nil {
		want.Tools = a.cfg.Tools.Specs()
	}
	h, needed, err := prompt.NextHeader(a.log.Events(), !a.sentRequest.Load(), want)
	if err != nil {
		return llm.Request{}, err
	}
	a.sentRequest.Store(true)
	if needed {
		if _, err := a.append(ctx, session.TypeRequestHeader, h, false); err != nil {
			return llm.Request{}, err
		}
	}
	return a.builder.Build(a.log.Events())
}

// stream runs one attempt, logging each chunk (buffered). streamErr is
// the provider's failure; err is a log failure.
func (a *Agent) stream(ctx context.Context, req llm.Request, turn, step, attempt int) (resp *llm.Response, streamErr, err error) {
	onChunk := func(c llm.Chunk) {
		if err == nil {
			_, err = a.append(ctx, session.TypeAssistantChunk, session.AssistantChunk{Turn: turn, Step: step, Attempt: attempt, Chunk: c}, false)
		}
	}
	resp, streamErr = a.cfg.Provider.Stream(ctx, req, onChunk)
	if err != nil {
		return nil, nil, err
	}
	if streamErr == nil && resp == nil {
		streamErr = &llm.Error{Kind: llm.ErrEmpty, Message: "the model returned no response"}
	}
	return resp, streamErr, nil
}
