package tools

import (
	"context"
	"sync"
)

// StepObserver hears about the calls of one step; the agent appends
// tool/call in CallStarted and tool/result in CallFinished.
//
// Every call gets exactly one CallStarted followed (later) by one
// CallFinished. CallStarted calls come in the model's order and each
// returns before that call's body starts, so a durable append there happens
// before any side effect. CallFinished calls come strictly in the model's
// order, whatever order the bodies finish in. A call that never started
// because ctx ended still gets both, the result carrying
// ABORTED_BEFORE_DISPATCH. The observer is never called concurrently.
type StepObserver interface {
	CallStarted(call Call)
	CallFinished(call Call, res Result)
}

// RunStep runs the calls of one model step and returns their results in
// the model's order. Concurrency-safe calls share a pool of
// RunnerConfig.MaxParallel; any other call runs alone, as a barrier. On
// cancellation the calls already started drain and keep their results
// (ABORTED if the tool stopped), and the rest get ABORTED_BEFORE_DISPATCH.
// obs may be nil.
func (r *Runner) RunStep(ctx context.Context, calls []Call, obs StepObserver) []Result {
	var mu sync.Mutex // serialises the observer
	notify := func(f func()) {
		if obs != nil {
			mu.Lock()
			defer mu.Unlock()
			f()
		}
	}
	results := make([]Result, len(calls))
	done := make([]chan struct{}, len(calls))
	for i := range done {
		done[i] = make(chan struct{})
	}
	reported := make(chan struct{})
	go func() {
		defer close(reported)
		for i, c := range calls {
			<-done[i]
			notify(func() { obs.CallFinished(c, results[i]) })
		}
	}()

	gate := NewGate(r.cfg.MaxParallel)
	for i, c := range calls {
		release, err := acquire(ctx, gate, r.ConcurrencySafe(c))
		if err != nil {
			for j := i; j < len(calls); j++ {
				results[j] = AbortedBeforeDispatch(calls[j])
				notify(func() { obs.CallStarted(calls[j]) })
				close(done[j])
			}
			break
		}
		notify(func() { obs.CallStarted(c) })
		go func() {
			defer close(done[i])
			defer release()
			results[i] = r.Dispatch(ctx, c)
		}()
	}
	<-reported
	return results
}

// acquire refuses to start anything once ctx has ended (Gate.Acquire may
// admit a call whose slot is free even when ctx is already done).
func acquire(ctx context.Context, g *Gate, safe bool) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return g.Acquire(ctx, safe)
}

// AbortedBeforeDispatch is the synthetic result of a call that never
// started because the step was cancelled.
func AbortedBeforeDispatch(call Call) Result {
	return Failure(call, Errorf(CodeAbortedBeforeDispatch, "tool call aborted before dispatch"))
}
