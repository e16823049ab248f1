package agent

import (
	"context"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// Hooks are the loop's extension points, run in slice order. A nil slice
// is no hook. Hooks are plain Go values: no plugin VM.
type Hooks struct {
	PreStep      []PreStepHook
	Request      []RequestHook
	RequestError []RequestErrorHook
	TurnStopping []TurnStoppingHook
}

// PreStepHook sees the input about to enter the log at a step boundary and
// may return it unchanged, rewrite it, or reject the step (the turn then
// ends "blocked" and nothing of the input is logged). The returned slice
// replaces the input for the next hook.
type PreStepHook interface {
	PreStep(ctx context.Context, turn, step int, input []Input) (out []Input, reject bool, err error)
}

// RequestHook may adjust the options of the next request. A changed
// result is logged as a request/header with reason "change".
type RequestHook interface {
	Request(ctx context.Context, turn, step int, opts llm.Options) (llm.Options, error)
}

// RequestErrorHook sees a failed attempt with the retry policy's verdict
// and returns the decision to use instead.
type RequestErrorHook interface {
	RequestError(ctx context.Context, turn, step, attempt int, failure *llm.Error, retry bool, delay time.Duration) (bool, time.Duration)
}

// TurnStoppingHook runs when a turn is about to complete; returning input
// steers the turn into another step instead.
type TurnStoppingHook interface {
	TurnStopping(ctx context.Context, turn int) []Input
}

func (h Hooks) preStep(ctx context.Context, turn, step int, in []Input) ([]Input, bool, error) {
	for _, hk := range h.PreStep {
		out, reject, err := hk.PreStep(ctx, turn, step, in)
		if err != nil || reject {
			return nil, reject, err
		}
		in = out
	}
	return in, false, nil
}

func (h Hooks) request(ctx context.Context, turn, step int, opts llm.Options) (llm.Options, error) {
	for _, hk := range h.Request {
		var err error
		if opts, err = hk.Request(ctx, turn, step, opts); err != nil {
			return opts, err
		}
	}
	return opts, nil
}

func (h Hooks) requestError(ctx context.Context, turn, step, attempt int, f *llm.Error, retry bool, d time.Duration) (bool, time.Duration) {
	for _, hk := range h.RequestError {
		retry, d = hk.RequestError(ctx, turn, step, attempt, f, retry, d)
	}
	return retry, d
}

func (h Hooks) turnStopping(ctx context.Context, turn int) []Input {
	var out []Input
	for _, hk := range h.TurnStopping {
		out = append(out, hk.TurnStopping(ctx, turn)...)
	}
	return out
}
