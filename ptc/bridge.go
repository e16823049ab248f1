package ptc

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// bridge turns tools.x(args) into nested calls through the Dispatcher.
//
// The host loop receives each call from the engine, already numbered, and
// queues it; one sequencer
// goroutine admits queued calls through a per-run FIFO Gate, so calls start
// in the order the program made them, concurrency-safe ones share the pool
// and any other call runs alone. Each admitted call runs on a worker
// goroutine and sends its settlement to the engine.
//
// When nothing is queued and the Gate has room, the loop admits the call
// itself (Gate.TryAcquire) and skips the sequencer: the common case of an
// awaited call, or of a batch within the pool, costs one goroutine hop less.
// Order is kept: the loop takes this path only while the sequencer has no
// call left to admit, and TryAcquire never overtakes a queued call. When
// the engine says the program waits for this call alone (a wait frame),
// the loop also runs it itself (inline), since no other frame can come
// until its settlement.
//
// Workers are reused: an admitted call goes to an idle worker when there is
// one, else to a new worker while there are fewer workers than Gate slots,
// else to the work queue (a worker that released its slot is about to take
// it). A fresh goroutine starts with a small stack that the pipeline (JSON
// decoding, schema validation) grows by copying on every call; a reused
// worker keeps its grown stack, which made a third of the cost of a nested
// no-op call.
type bridge struct {
	h     *hostRun
	em    *emitter
	gate  *tools.Gate
	queue chan *nested
	work  chan admitted // holds up to the Gate's slots: a send never blocks
	seq   sync.WaitGroup
	wg    sync.WaitGroup // workers
	once  sync.Once

	waiting atomic.Int32 // calls queued for the sequencer and not yet handled
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
}

func newBridge(h *hostRun, em *emitter) *bridge {
	slots := max(h.lim.Parallel, 1) // as NewGate counts them
	return &bridge{h: h, em: em, gate: tools.NewGate(slots), queue: make(chan *nested, h.lim.MaxCalls),
		work: make(chan admitted, slots), slots: int32(slots)}
}

// call takes tools.<name>(args) from the engine, args already
// JSON-encoded; it runs on the host loop. The engine numbers calls from 1
// and stops the program at MaxCalls; a call out of that sequence is
// ignored (the engine would be broken) so the queue can never overflow.
func (b *bridge) call(cf callFrame) {
	h := b.h
	b.mu.Lock()
	n := len(b.calls) + 1
	b.mu.Unlock()
	if cf.n != n || n > h.lim.MaxCalls {
		return
	}
	id := h.req.CallID + ":ptc:" + strconv.Itoa(n)
	if len(cf.args) > MaxCallArgs {
		b.refuse(n, id, cf)
		return
	}
	c := &nested{
		n: n,
		call: tools.Call{ID: id, Name: cf.name, Raw: cf.args, Args: json.RawMessage(cf.args),
			Turn: h.req.Turn, Step: h.req.Step, ParentID: h.req.CallID, Nested: true},
		rec: CallRecord{ID: id, Name: cf.name, Arguments: cf.args},
	}
	b.mu.Lock()
	b.calls = append(b.calls, c)
	b.mu.Unlock()
	if cf.alone && b.waiting.Load() == 0 && h.ctx.Err() == nil {
		// Nothing else runs or can come until it settles: whether it may
		// share the pool does not matter, so the tool is not asked.
		if release, ok := b.gate.TryAcquire(false); ok {
			b.inline(c, release)
			return
		}
	}
	c.safe = b.concurrencySafe(c)
	if b.waiting.Load() == 0 {
		if release, ok := b.gate.TryAcquire(c.safe); ok {
			switch {
			case h.ctx.Err() != nil:
				release() // the run is being cancelled: let the sequencer abort it
			case cf.alone:
				b.inline(c, release)
				return
			default:
				b.start(c, release)
				return
			}
		}
	}
	b.waiting.Add(1)
	b.once.Do(func() {
		b.seq.Add(1)
		go b.sequence()
	})
	b.queue <- c // never blocks: the queue holds MaxCalls
}

// refuse settles a call whose arguments are over MaxCallArgs without
// running it or logging its arguments (the engine refuses such calls
// itself; this is the host's own guard). It keeps the calls' numbering.
func (b *bridge) refuse(n int, id string, cf callFrame) {
	msg := argsTooLarge(cf.name, len(cf.args))
	c := &nested{n: n, call: tools.Call{ID: id, Name: cf.name},
		rec: CallRecord{ID: id, Name: cf.name, Arguments: "{}", Settled: true, IsError: true, Code: tools.CodeInvalidArgs}}
	b.mu.Lock()
	b.calls = append(b.calls, c)
	b.mu.Unlock()
	body, _ := json.Marshal(callError{Code: tools.CodeInvalidArgs, Message: msg})
	b.h.settle(n, settleError, body)
}

// concurrencySafe asks the tool whether the call may share the pool; a
// tool that panics while deciding runs alone (the Dispatcher then reports
// its failure).
func (b *bridge) concurrencySafe(c *nested) (safe bool) {
	disp := b.h.req.Dispatcher
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
	ctx := b.h.ctx
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
	b.begin(c)
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

// inline runs a call on the host loop itself, for a program that waits
// for this call and nothing else (see hostRun.loop): the settlement then
// leaves from the goroutine that read the call, without waking a worker,
// which on a loaded machine is a scheduling delay per sequential call.
func (b *bridge) inline(c *nested, release func()) {
	b.begin(c)
	b.execute(c, release)()
}

// begin records the call as started and emits its start event.
func (b *bridge) begin(c *nested) {
	b.update(c, func(rec *CallRecord) { rec.Started = true })
	b.em.emit(session.TypePtcDispatchStart, b.dispatchData(c, nil))
}

// worker runs its first call, then calls from the work queue until drain.
func (b *bridge) worker(a admitted) {
	defer b.wg.Done()
	for {
		settle := b.execute(a.c, a.release)
		b.idle.Add(1) // before the program can see the settlement and make a call
		settle()
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
		RootCallID: b.h.req.CallID, ParentCallID: b.h.req.CallID, SubCallID: c.call.ID,
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

// execute runs one admitted call and returns the function that sends its
// settlement to the engine.
func (b *bridge) execute(c *nested, release func()) func() {
	res := b.dispatch(c)
	release()
	var kind byte
	var body []byte
	if !res.IsError {
		var err error
		if kind, body, err = encodeValue(res.Value); err != nil {
			res = tools.Failure(c.call, tools.Errorf(tools.CodeInvalidToolOutput, "%s returned a value that is not JSON: %v", c.call.Name, err))
		}
	}
	if res.IsError {
		kind, body = settleError, encodeCallError(res)
	}
	b.update(c, func(rec *CallRecord) {
		rec.Settled, rec.IsError = true, res.IsError
		if res.Error != nil {
			rec.Code = res.Error.Code
		}
	})
	b.em.emit(session.TypePtcDispatch, b.dispatchData(c, &res))
	return func() { b.h.settle(c.n, kind, body) }
}

// dispatch calls the Dispatcher, turning a panic into a failed result so a
// broken tool cannot take the host down.
func (b *bridge) dispatch(c *nested) (res tools.Result) {
	defer func() {
		if p := recover(); p != nil {
			res = tools.Failure(c.call, tools.Errorf(tools.CodeToolFailed, "%s crashed: %v", c.call.Name, p))
		}
	}()
	if b.h.req.Dispatcher == nil {
		return tools.Failure(c.call, tools.Errorf(tools.CodeUnknownTool, "no tools are available to this program"))
	}
	return b.h.req.Dispatcher.Dispatch(b.h.ctx, c.call)
}

// encodeValue encodes a tool's value for the engine: a value that maps onto
// a JS primitive as it is (a string, a boolean, null) skips the JSON round
// trip. The direct forms give the program exactly what
// JSON.parse(json.Marshal(v)) would (strings only when valid UTF-8, which
// JSON encoding would otherwise repair).
func encodeValue(v any) (kind byte, body []byte, err error) {
	switch x := v.(type) {
	case nil:
		return settleNull, nil, nil
	case bool:
		if x {
			return settleTrue, nil, nil
		}
		return settleFalse, nil, nil
	case string:
		if utf8.ValidString(x) {
			return settleString, []byte(x), nil
		}
	}
	body, err = json.Marshal(v)
	return settleJSON, body, err
}

// encodeCallError is a failed result as the program's ToolCallError sees
// it: the error's code and message, or the rendered content.
func encodeCallError(res tools.Result) []byte {
	ce := callError{Code: tools.CodeToolFailed, Message: strings.TrimPrefix(res.Content, "Error: ")}
	if res.Error != nil {
		ce.Code, ce.Message = res.Error.Code, res.Error.Message
	}
	b, _ := json.Marshal(ce)
	return b
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
