package ptc

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// bridge turns tools.x(args) into nested calls through the Dispatcher.
//
// The loop goroutine numbers each call and queues it; one sequencer
// goroutine admits queued calls through a per-run FIFO Gate, so calls start
// in the order the program made them, concurrency-safe ones share the pool
// and any other call runs alone. Each admitted call runs on a worker
// goroutine and posts its settlement back to the loop.
//
// When nothing is queued and the Gate has room, the loop admits the call
// itself (Gate.TryAcquire) and skips the sequencer: the common case of an
// awaited call, or of a batch within the pool, costs one goroutine hop less.
// Order is kept: the loop takes this path only while the sequencer has no
// call left to admit, and TryAcquire never overtakes a queued call.
//
// Workers are reused: an admitted call goes to an idle worker when there is
// one, else to a new worker while there are fewer workers than Gate slots,
// else to the work queue (a worker that released its slot is about to take
// it). A fresh goroutine starts with a small stack that the pipeline (JSON
// decoding, schema validation) grows by copying on every call; a reused
// worker keeps its grown stack, which made a third of the cost of a nested
// no-op call.
type bridge struct {
	r     *run
	em    *emitter
	gate  *tools.Gate
	queue chan *nested
	work  chan admitted // holds up to the Gate's slots: a send never blocks
	seq   sync.WaitGroup
	wg    sync.WaitGroup // workers
	once  sync.Once

	n       int               // loop-only: calls made so far
	frames  []goja.StackFrame // loop-only: scratch for call sites
	waiting atomic.Int32      // calls queued for the sequencer and not yet handled
	// The worker counts are changed by start (called by the loop or the
	// sequencer, never both at once) and, for idle, by workers.
	slots   int32        // the Gate's pool size
	workers atomic.Int32 // workers started
	idle    atomic.Int32 // workers done with their call minus calls queued for them

	mu    sync.Mutex
	calls []*nested
}

// admitted is a call that passed the Gate, with the release of its slot.
type admitted struct {
	c       *nested
	release func()
}

type nested struct {
	n    int
	call tools.Call
	safe bool
	rec  CallRecord // guarded by bridge.mu
	// site is where the program made the call (the first frame in the
	// model's code), so an uncaught ToolCallError can name its line.
	site    goja.StackFrame
	hasSite bool
}

func newBridge(r *run, em *emitter) *bridge {
	slots := max(r.lim.Parallel, 1) // as NewGate counts them
	return &bridge{r: r, em: em, gate: tools.NewGate(slots), queue: make(chan *nested, r.lim.MaxCalls),
		work: make(chan admitted, slots), slots: int32(slots)}
}

// callSite returns the innermost frame of the model's own code on the
// current JS stack (the frames above it belong to the prelude).
func (b *bridge) callSite() (goja.StackFrame, bool) {
	b.frames = b.r.rt.CaptureCallStack(8, b.frames[:0])
	for _, f := range b.frames {
		if f.SrcName() == sourceName {
			return f, true
		}
	}
	return goja.StackFrame{}, false
}

// call is tools.<name>(args) with args already JSON-encoded; it runs on the
// loop goroutine and returns the call's promise.
func (b *bridge) call(name, raw string) goja.Value {
	r := b.r
	p, resolve, reject := r.rt.NewPromise()
	if b.n >= r.lim.MaxCalls {
		r.halt(&Failure{Kind: KindCallLimit, Message: fmt.Sprintf(
			"the program made more than %d tool calls; batch the work or narrow it (e.g. one grep instead of many reads)", r.lim.MaxCalls)})
		return r.rt.ToValue(p)
	}
	b.n++
	id := fmt.Sprintf("%s:ptc:%d", r.req.CallID, b.n)
	c := &nested{
		n: b.n,
		call: tools.Call{ID: id, Name: name, Raw: raw, Args: json.RawMessage(raw),
			Turn: r.req.Turn, Step: r.req.Step, ParentID: r.req.CallID, Nested: true},
		rec: CallRecord{ID: id, Name: name, Arguments: raw},
	}
	c.site, c.hasSite = b.callSite()
	r.resolvers[b.n] = resolver{resolve: resolve, reject: reject}
	r.pending++
	b.mu.Lock()
	b.calls = append(b.calls, c)
	b.mu.Unlock()
	c.safe = b.concurrencySafe(c)
	if b.waiting.Load() == 0 {
		if release, ok := b.gate.TryAcquire(c.safe); ok {
			if r.ctx.Err() == nil {
				b.start(c, release)
				return r.rt.ToValue(p)
			}
			release() // the run is being cancelled: let the sequencer abort it
		}
	}
	b.waiting.Add(1)
	b.once.Do(func() {
		b.seq.Add(1)
		go b.sequence()
	})
	b.queue <- c // never blocks: the queue holds MaxCalls
	return r.rt.ToValue(p)
}

// concurrencySafe asks the tool whether the call may share the pool; a
// tool that panics while deciding runs alone (the Dispatcher then reports
// its failure).
func (b *bridge) concurrencySafe(c *nested) (safe bool) {
	disp := b.r.req.Dispatcher
	if disp == nil {
		return false
	}
	defer func() {
		if recover() != nil {
			safe = false
		}
	}()
	t, ok := disp.Lookup(c.call.Name)
	return ok && t.ConcurrencySafe(c.call.Args)
}

func (b *bridge) sequence() {
	defer b.seq.Done()
	ctx := b.r.ctx
	for c := range b.queue {
		b.admit(ctx, c)
		b.waiting.Add(-1) // after the start event: later calls may now go first-hand
	}
}

// admit waits for the call's turn at the Gate and starts it, or records it
// as aborted when the run ends first.
func (b *bridge) admit(ctx context.Context, c *nested) {
	release, err := b.gate.Acquire(ctx, c.safe)
	if err == nil && ctx.Err() != nil {
		release() // admitted just as the program ended: do not start it
		err = ctx.Err()
	}
	if err != nil {
		b.update(c, func(rec *CallRecord) { rec.IsError, rec.Code = true, tools.CodeAbortedBeforeDispatch })
		return
	}
	b.start(c, release)
}

// start emits the call's start event and hands the call to a worker (see
// bridge). Every queued call holds a Gate slot, so the queue never holds
// more than the slots and the send never blocks; with all workers started
// at least one of them has released its slot and is about to take it.
func (b *bridge) start(c *nested, release func()) {
	b.update(c, func(rec *CallRecord) { rec.Started = true })
	b.em.emit(session.TypePtcDispatchStart, b.dispatchData(c, nil))
	a := admitted{c: c, release: release}
	if b.idle.Load() <= 0 && b.workers.Load() < b.slots {
		b.workers.Add(1)
		b.wg.Add(1)
		go b.worker(a)
		return
	}
	b.idle.Add(-1)
	b.work <- a
}

// worker runs its first call, then calls from the work queue until drain.
func (b *bridge) worker(a admitted) {
	defer b.wg.Done()
	for {
		settle := b.execute(a.c, a.release)
		b.idle.Add(1) // before the loop can see the settlement and make a call
		b.r.post(settle)
		var ok bool
		if a, ok = <-b.work; !ok {
			return
		}
	}
}

func (b *bridge) update(c *nested, f func(*CallRecord)) {
	b.mu.Lock()
	f(&c.rec)
	b.mu.Unlock()
}

func (b *bridge) dispatchData(c *nested, res *tools.Result) session.PtcDispatch {
	d := session.PtcDispatch{
		RootCallID: b.r.req.CallID, ParentCallID: b.r.req.CallID, SubCallID: c.call.ID,
		Name: c.call.Name, Arguments: c.call.Raw,
	}
	if res != nil {
		d.IsError, d.Content = res.IsError, res.Content
		if res.Error != nil {
			d.Error = &session.ErrorInfo{Code: res.Error.Code, Message: res.Error.Message}
		}
	}
	return d
}

// execute runs one admitted call and returns the job that settles it on
// the loop.
func (b *bridge) execute(c *nested, release func()) job {
	res := b.dispatch(c)
	release()
	var value jsValue
	if !res.IsError {
		var err error
		if value, err = encodeValue(res.Value); err != nil {
			res = tools.Failure(c.call, tools.Errorf(tools.CodeInvalidToolOutput, "%s returned a value that is not JSON: %v", c.call.Name, err))
		}
	}
	b.update(c, func(rec *CallRecord) {
		rec.Settled, rec.IsError = true, res.IsError
		if res.Error != nil {
			rec.Code = res.Error.Code
		}
	})
	b.em.emit(session.TypePtcDispatch, b.dispatchData(c, &res))
	return func() error { return b.r.settle(c, res, value) }
}

// dispatch calls the Dispatcher, turning a panic into a failed result so a
// broken tool cannot take the host down.
func (b *bridge) dispatch(c *nested) (res tools.Result) {
	defer func() {
		if p := recover(); p != nil {
			res = tools.Failure(c.call, tools.Errorf(tools.CodeToolFailed, "%s crashed: %v", c.call.Name, p))
		}
	}()
	if b.r.req.Dispatcher == nil {
		return tools.Failure(c.call, tools.Errorf(tools.CodeUnknownTool, "no tools are available to this program"))
	}
	return b.r.req.Dispatcher.Dispatch(b.r.ctx, c.call)
}

// jsValue is a tool's value on its way to the program: its JSON text, or
// a value that maps onto a JS primitive as it is (a string, a boolean,
// null), which skips the encode-and-parse round trip.
type jsValue struct {
	json      []byte
	primitive any
	direct    bool
}

// encodeValue prepares a tool's value for the loop. The direct forms give
// the program exactly what JSON.parse(json.Marshal(v)) would (strings only
// when valid UTF-8, which JSON encoding would otherwise repair).
func encodeValue(v any) (jsValue, error) {
	switch x := v.(type) {
	case nil, bool:
		return jsValue{primitive: x, direct: true}, nil
	case string:
		if utf8.ValidString(x) {
			return jsValue{primitive: x, direct: true}, nil
		}
	}
	b, err := json.Marshal(v)
	return jsValue{json: b}, err
}

// settle resolves or rejects the call's promise; it runs on the loop.
func (r *run) settle(c *nested, res tools.Result, value jsValue) error {
	rs, ok := r.resolvers[c.n]
	if !ok {
		return nil
	}
	delete(r.resolvers, c.n)
	r.pending--
	if res.IsError {
		code, msg := tools.CodeToolFailed, strings.TrimPrefix(res.Content, "Error: ")
		if res.Error != nil {
			code, msg = res.Error.Code, res.Error.Message
		}
		e, err := r.rt.New(r.help.toolCallError, r.rt.ToValue(c.call.Name), r.rt.ToValue(code), r.rt.ToValue(msg))
		if err != nil {
			return err
		}
		if c.hasSite {
			r.errSites[e] = c.site
		}
		return rs.reject(e)
	}
	if value.direct {
		return rs.resolve(r.rt.ToValue(value.primitive))
	}
	v, err := r.jsonParse(goja.Undefined(), r.rt.ToValue(string(value.json)))
	if err != nil {
		return err
	}
	return rs.resolve(v)
}

// drain waits for the sequencer and every started call after the loop has
// ended (the run context is cancelled by then, so pending calls abort).
func (b *bridge) drain() {
	close(b.queue)
	b.seq.Wait()
	close(b.work) // no call can start any more: idle workers end
	b.wg.Wait()
}

// records returns the calls in the order the program made them.
func (b *bridge) records() []CallRecord {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]CallRecord, len(b.calls))
	for i, c := range b.calls {
		out[i] = c.rec
		if !out[i].Started && out[i].Code == "" {
			out[i].IsError, out[i].Code = true, tools.CodeAbortedBeforeDispatch
		}
	}
	return out
}
