package ptc

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// Request is one program to run.
type Request struct {
	// CallID is the run_code call; nested calls are "<CallID>:ptc:<n>".
	CallID string
	// Code is the TypeScript body of an async function.
	Code string
	// Tools are the names the program may call (tools.<name>).
	Tools []string
	// Dispatcher runs nested calls through the tool pipeline.
	Dispatcher tools.Dispatcher
	// Sink, when set, receives tool/ptc-dispatch* and tool/ptc-log events.
	Sink tools.Sink
	// Timeout is the wall time; 0 means Limits.Timeout, and more than
	// Limits.MaxTimeout is capped at it (as timeout_ms is).
	Timeout time.Duration
	// Turn and Step are copied onto nested calls.
	Turn, Step int
}

// killGrace is how long an engine has to stop after an interrupt before
// the host kills it: a native builtin (a sort, a huge join) does not see
// interrupts until it returns.
const killGrace = 500 * time.Millisecond

// rssSample is how often the host checks an engine's resident memory.
const rssSample = 5 * time.Millisecond

// Run executes one program in a fresh goja runtime inside an engine
// process and reports what it did. The host survives whatever the program
// does: a crash, an endless native loop or a huge allocation ends the
// engine process, not this one. Wall time is bounded by the timeout plus
// killGrace, memory by Limits.HeapGrowth plus memMargin.
//
// Run never returns a Go error: every way a program can stop is an Outcome
// with a Failure. Nested calls still running when the program ends are
// cancelled and drained before Run returns, so all dispatch events have
// been emitted by then; console lines and calls are kept by the host as
// they arrive, so a program whose engine died still reports them.
func Run(ctx context.Context, lim Limits, req Request) *Outcome {
	lim = lim.WithDefaults()
	timeout := lim.Timeout
	if req.Timeout > 0 {
		timeout = min(req.Timeout, lim.MaxTimeout)
	}
	// The budget runs from here: starting an engine counts.
	deadline := time.Now().Add(timeout)
	for attempt := 0; ; attempt++ {
		e, reused, err := engines.acquire(lim.HeapGrowth, lim.HardOutput, deadline)
		if err != nil {
			f := &Failure{Kind: KindInternal, Message: "the run_code engine could not start: " + err.Error()}
			if time.Now().After(deadline) {
				f = timedOut(timeout)
				f.Message += " (the engine process did not start in time)"
			}
			return &Outcome{Logs: []string{}, Calls: []CallRecord{}, Failure: f}
		}
		h := newHostRun(ctx, lim, req, e)
		o, stale := h.execute(timeout, deadline)
		if stale && reused && attempt == 0 {
			continue // the idle engine had died; nothing of the program ran
		}
		return o
	}
}

// hostRun is the host side of one run: it relays the engine's console
// lines and nested calls, enforces wall time and memory, and kills the
// engine when it does not stop in time.
type hostRun struct {
	lim    Limits
	req    Request
	e      *engineProc
	parent context.Context
	ctx    context.Context // cancelled when the run ends: aborts pending calls
	cancel context.CancelFunc
	out    *output
	br     *bridge

	mu      sync.Mutex
	stopped *Failure // why the host stopped the program (first reason wins)
	done    bool     // the engine reported the end: settlements are dropped
	frames  int      // frames received from the engine
}

func newHostRun(ctx context.Context, lim Limits, req Request, e *engineProc) *hostRun {
	h := &hostRun{lim: lim, req: req, e: e, parent: ctx}
	h.ctx, h.cancel = context.WithCancel(ctx)
	em := &emitter{sink: req.Sink}
	h.out = newOutput(lim.HardOutput, req.CallID, em)
	h.br = newBridge(h, em)
	return h
}

// execute runs the program on the engine. stale reports an engine that
// was gone before it read the program.
func (h *hostRun) execute(timeout time.Duration, deadline time.Time) (o *Outcome, stale bool) {
	base, _ := residentBytes(h.e.pid())
	start, _ := json.Marshal(startMsg{
		CallID: h.req.CallID, Code: h.req.Code, Tools: h.req.Tools, HardOutput: h.lim.HardOutput,
		HeapLimit: h.lim.HeapGrowth, HeapSample: int64(h.lim.HeapSample), CallStack: h.lim.CallStack, MaxCalls: h.lim.MaxCalls,
	})
	var d doneMsg
	var err error
	if err = h.e.w.write(frameStart, start); err == nil {
		stop := h.watch(timeout, deadline, base)
		d, err = h.loop()
		stop()
	}
	h.mu.Lock()
	h.done = true
	stale = err != nil && h.frames == 0 && h.stopped == nil
	h.mu.Unlock()
	h.cancel()
	h.br.drain()

	o = &Outcome{Logs: h.out.logs, Calls: h.br.records()}
	switch {
	case err == nil:
		o.Failure = d.Failure
		if d.Failure == nil {
			o.Result = d.Result
		}
		if d.Failure == nil && len(d.Result) > 0 && !json.Valid(d.Result) {
			o.Failure, o.Result = &Failure{Kind: KindInternal, Message: "the engine returned a result that is not JSON"}, nil
			d.Retire = true
		}
	default:
		o.Failure = h.lost(err)
		d.Retire = true
	}
	o.Truncated = h.out.cap.exceeded || o.Failure != nil && o.Failure.Kind == KindOutputLimit
	if d.Retire || h.stopped != nil {
		h.e.close()
	} else {
		engines.release(h.e, base)
	}
	return o, stale
}

// lost explains a run whose engine ended without reporting: the host
// stopped it (timeout, cancellation, memory), the engine died by itself,
// or it broke the protocol.
func (h *hostRun) lost(err error) *Failure {
	h.mu.Lock()
	stopped := h.stopped
	h.mu.Unlock()
	if stopped != nil {
		f := *stopped
		return &f
	}
	if !errIsEOF(err) {
		h.e.kill()
		return &Failure{Kind: KindInternal, Message: "the run_code engine broke the protocol: " + err.Error()}
	}
	h.e.waitExit()
	return deathFailure(h.e.stderr.String(), h.lim.HeapGrowth)
}

// loop relays the engine's frames until it reports the end of the run.
//
// A call read together with a wait frame for it runs on this goroutine
// (bridge.inline) and the loop reads no frame until it is settled. That is
// safe because the engine sends a wait frame only when the program waits
// for that call and nothing else (no other call, no timer): until the
// settlement it runs no program code, so it sends nothing. What can still
// end the run meanwhile ends the call too: the deadline, cancellation and
// the memory kill cancel h.ctx (interrupt, stop). An engine that halts
// itself meanwhile (its heap watch) is heard when the call returns.
func (h *hostRun) loop() (doneMsg, error) {
	for {
		typ, p, err := h.e.r.next()
		if err != nil {
			return doneMsg{}, err
		}
		h.mu.Lock()
		h.frames++
		h.mu.Unlock()
		h.e.rp.poll = false
		switch typ {
		case frameLog:
			if len(p) > 0 {
				h.out.log(levelName(p[0]), string(p[1:]))
			}
		case frameCall:
			c, err := decodeCall(p)
			if err != nil {
				return doneMsg{}, err
			}
			c.alone = h.e.r.takeWait(c.n)
			h.br.call(c)
			// An alone call was run and settled here: the engine's
			// next frame answers it, so poll for it (see pipeReader).
			h.e.rp.poll = c.alone
		case frameWait:
			// Read apart from its call, which has been started already.
		case frameDone:
			return decodeDone(p)
		default:
			return doneMsg{}, fmt.Errorf("unexpected frame %q", typ)
		}
	}
}

// watch enforces wall time, cancellation and the memory bound until the
// returned function is called. Time and cancellation interrupt the
// program (the engine reports its line) and kill the engine killGrace
// later; memory past the budget plus memMargin kills it at once.
func (h *hostRun) watch(timeout time.Duration, until time.Time, base uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		deadline := time.NewTimer(time.Until(until))
		defer deadline.Stop()
		tick := time.NewTicker(rssSample)
		defer tick.Stop()
		limit := base + rssAllowance(h.lim.HeapGrowth)
		cancelled := h.parent.Done()
		var kill <-chan time.Time
		for {
			select {
			case <-done:
				return
			case <-h.e.exited:
				return
			case <-cancelled:
				cancelled = nil
				kill = h.interrupt(&Failure{Kind: KindAborted, Message: "the run was cancelled before the program finished"})
			case <-deadline.C:
				kill = h.interrupt(timedOut(timeout))
			case <-kill:
				h.stop(nil)
				return
			case <-tick.C:
				if rss, ok := residentBytes(h.e.pid()); ok && base > 0 && rss > limit {
					h.stop(memoryLimit(rss-base, h.lim.HeapGrowth))
					return
				}
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// rssAllowance is how far an engine's resident memory may grow in a run.
func rssAllowance(budget uint64) uint64 {
	if raceEnabled {
		return 4 * (budget + memMargin)
	}
	return budget + memMargin
}

// interrupt asks the engine to stop the program for f and returns the
// timer after which the host kills it. The first reason wins.
func (h *hostRun) interrupt(f *Failure) <-chan time.Time {
	h.mu.Lock()
	first := h.stopped == nil
	if first {
		h.stopped = f
	}
	h.mu.Unlock()
	if first {
		h.cancel() // the program will not see results now: calls in flight abort
		msg, _ := json.Marshal(f)
		// Its own pipe, which carries nothing else: the write never waits.
		_ = h.e.intr.write(frameInterrupt, msg)
	}
	return time.After(killGrace)
}

// stop kills the engine, recording f as the reason unless one was given.
func (h *hostRun) stop(f *Failure) {
	h.mu.Lock()
	if h.stopped == nil {
		h.stopped = f
	}
	h.mu.Unlock()
	h.cancel()
	h.e.kill()
}

// settle sends a nested call's settlement to the engine, unless the run
// is over or being stopped or cancelled (which aborted the call: the
// program must end with the stop's reason, not catch the abort).
func (h *hostRun) settle(n int, kind byte, body []byte) {
	h.mu.Lock()
	over := h.done || h.stopped != nil || h.parent.Err() != nil
	h.mu.Unlock()
	if over {
		return // the program is being stopped: it must not see this result
	}
	_ = h.e.w.write(frameSettle, u32(uint32(n)), []byte{kind}, body)
}

func timedOut(timeout time.Duration) *Failure {
	return &Failure{Kind: KindTimeout, Message: fmt.Sprintf("the program did not finish within %s", timeout)}
}
