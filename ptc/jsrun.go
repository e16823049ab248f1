package ptc

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// This file is the engine side of a run: it executes inside the engine
// process (see worker.go), never in the host.

//go:embed prelude.js
var preludeSource string

// prelude is compiled once per engine process, on first use; a Program
// can run in any runtime.
var prelude = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("prelude.js", preludeSource, true)
})

// helpers are the prelude's functions the engine calls.
type helpers struct {
	toolCallError goja.Value
	inspect       goja.Callable
	serialize     goja.Callable
	describe      goja.Callable
}

// job is work for the loop goroutine; only the loop touches the runtime.
// A returned error is uncatchable (an interrupt, a stack overflow) and
// ends the run.
type job func() error

// jsRun is one program in one fresh goja runtime. Fields below "loop-only"
// are touched only by the goroutine that runs the event loop.
type jsRun struct {
	rt  *goja.Runtime
	msg startMsg
	w   *frameWriter // to the host
	in  *inbox       // from the host; read by the loop only

	qmu   sync.Mutex
	queue []job // timers waiting for the loop
	ended bool  // the loop is over: jobs are dropped (guarded by qmu)

	haltMu  sync.Mutex
	haltWhy *Failure
	halted  chan struct{}

	help helpers

	// loop-only
	out       outputCap
	result    []byte
	pending   int // tool calls and timers that may still post a job
	calls     int // calls made so far
	unsent    int // calls buffered since the loop last waited
	resolvers map[int]pendingCall
	timers    map[int]*timer
	timerSeq  int
	rejected  map[*goja.Promise]goja.Value
	errSites  map[*goja.Object]goja.StackFrame // ToolCallErrors → their call sites
	frames    []goja.StackFrame                // scratch for call sites
	jsonParse goja.Callable
}

// pendingCall is a nested call the program awaits.
type pendingCall struct {
	name            string
	resolve, reject func(any) error
	site            goja.StackFrame // where the program made the call
	hasSite         bool
}

type timer struct {
	t  *time.Timer
	fn goja.Callable
}

func newJSRun(m startMsg, w *frameWriter, in *inbox) *jsRun {
	return &jsRun{
		rt:        goja.New(),
		msg:       m,
		w:         w,
		in:        in,
		halted:    make(chan struct{}),
		out:       outputCap{hard: m.HardOutput},
		resolvers: map[int]pendingCall{},
		timers:    map[int]*timer{},
		rejected:  map[*goja.Promise]goja.Value{},
		errSites:  map[*goja.Object]goja.StackFrame{},
	}
}

// halt stops the program from any goroutine; the first reason wins.
func (r *jsRun) halt(f *Failure) {
	r.haltMu.Lock()
	defer r.haltMu.Unlock()
	if r.haltWhy != nil {
		return
	}
	r.haltWhy = f
	r.rt.Interrupt(f)
	close(r.halted)
	r.in.wake()
}

// haltFailure is a copy of the reason the run was halted.
func (r *jsRun) haltFailure() *Failure {
	r.haltMu.Lock()
	defer r.haltMu.Unlock()
	if r.haltWhy == nil {
		return &Failure{Kind: KindException, Message: "the program was interrupted"}
	}
	f := *r.haltWhy
	return &f
}

// run executes the program and reports how it ended. A Go panic inside
// the engine (goja has a few on hostile prototypes) ends the run with an
// exception, and the process retires: its runtime state is not trusted.
func (r *jsRun) run() (d doneMsg) {
	defer func() {
		if p := recover(); p != nil {
			d = doneMsg{Failure: engineFailure(p), Retire: true}
		}
	}()
	prog, f := compile(r.msg.Code, r.msg.Tools)
	if f != nil {
		return doneMsg{Failure: f}
	}
	stop := r.watchHeap()
	f = r.execute(prog)
	stop()
	r.qmu.Lock()
	r.ended = true
	r.qmu.Unlock()
	for _, t := range r.timers {
		t.t.Stop()
	}
	if f != nil {
		f.Message = sanitize(f.Message)
		return doneMsg{Failure: f}
	}
	return doneMsg{Result: r.result}
}

// engineFailure describes a Go panic raised inside goja while it ran the
// program; the panic value itself holds engine internals and is not shown.
func engineFailure(any) *Failure {
	return &Failure{Kind: KindException, Message: "the JavaScript engine failed on an operation of this program " +
		"(an internal error, typically after the program replaced a built-in prototype); the run was stopped"}
}

// execute runs the program and its event loop; it returns nil when the
// program completed.
func (r *jsRun) execute(prog *goja.Program) *Failure {
	if f := r.setup(); f != nil {
		return f
	}
	v, err := r.rt.RunProgram(prog)
	if err != nil {
		return r.failure(err)
	}
	p, ok := v.Export().(*goja.Promise)
	if !ok {
		return &Failure{Kind: KindException, Message: "internal error: the program wrapper did not return a promise"}
	}
	for p.State() == goja.PromiseStatePending {
		if f := r.step(); f != nil {
			return f
		}
	}
	if p.State() == goja.PromiseStateRejected {
		return r.thrown(p.Result())
	}
	delete(r.rejected, p)
	for _, reason := range r.rejected {
		f := r.thrown(reason)
		f.Message = "unhandled promise rejection: " + f.Message + " (await every promise, or attach .catch)"
		return f
	}
	if err := r.setResult(p.Result()); err != nil {
		return r.failure(err)
	}
	select {
	case <-r.halted: // the result itself went over the output cap
		return r.haltFailure()
	default:
	}
	return nil
}

// setup installs the bindings in the fresh runtime.
func (r *jsRun) setup() *Failure {
	rt := r.rt
	rt.SetMaxCallStackSize(r.msg.CallStack)
	rt.SetPromiseRejectionTracker(func(p *goja.Promise, op goja.PromiseRejectionOperation) {
		if op == goja.PromiseRejectionReject {
			r.rejected[p] = p.Result()
		} else {
			delete(r.rejected, p)
		}
	})
	names := make([]any, len(r.msg.Tools))
	for i, n := range r.msg.Tools {
		names[i] = n
	}
	host := rt.NewObject()
	must(host.Set("names", names))
	must(host.Set("log", func(fc goja.FunctionCall) goja.Value {
		r.log(fc.Argument(0).String(), fc.Argument(1).String())
		return goja.Undefined()
	}))
	// call takes the FunctionCall form: goja calls it without reflection.
	must(host.Set("call", func(fc goja.FunctionCall) goja.Value {
		return r.call(fc.Argument(0).String(), fc.Argument(1).String())
	}))
	must(host.Set("setTimeout", r.setTimeout))
	must(host.Set("clearTimeout", r.clearTimeout))

	installSort(rt)
	r.jsonParse = installJSONParse(rt)
	fv, err := rt.RunProgram(prelude())
	if err != nil {
		return r.failure(err)
	}
	fn, _ := goja.AssertFunction(fv)
	hv, err := fn(goja.Undefined(), host)
	if err != nil {
		return r.failure(err)
	}
	h := hv.ToObject(rt)
	installRegexpExec(rt, h.Get("regexp").ToObject(rt))
	get := func(name string) goja.Callable {
		f, _ := goja.AssertFunction(h.Get(name))
		return f
	}
	r.help = helpers{
		toolCallError: h.Get("ToolCallError"),
		inspect:       get("inspect"),
		serialize:     get("serialize"),
		describe:      get("describe"),
	}
	return nil
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// log counts a console line against the output cap and sends it.
func (r *jsRun) log(level, text string) {
	if r.out.over(len(text) + 1) {
		r.halt(outputLimit(r.out.hard))
		return
	}
	_ = r.w.write(frameLog, []byte{levelCode(level)}, []byte(sanitize(text)))
}

// call is tools.<name>(args) with args already JSON-encoded: it sends the
// call to the host and returns the promise its settlement will settle.
func (r *jsRun) call(name, raw string) goja.Value {
	p, resolve, reject := r.rt.NewPromise()
	if len(raw) > MaxCallArgs {
		// Refused here, in the engine: the host never holds a copy.
		e, err := r.rt.New(r.help.toolCallError, r.rt.ToValue(name), r.rt.ToValue(tools.CodeInvalidArgs), r.rt.ToValue(argsTooLarge(name, len(raw))))
		if err == nil {
			_ = reject(e)
		}
		return r.rt.ToValue(p)
	}
	if r.calls >= r.msg.MaxCalls {
		r.halt(&Failure{Kind: KindCallLimit, Message: fmt.Sprintf(
			"the program made more than %d tool calls; batch the work or narrow it (e.g. one grep instead of many reads)", r.msg.MaxCalls)})
		return r.rt.ToValue(p)
	}
	r.calls++
	pc := pendingCall{name: name, resolve: resolve, reject: reject}
	pc.site, pc.hasSite = r.callSite()
	r.resolvers[r.calls] = pc
	r.pending++
	r.unsent++
	// The frame leaves when the program waits (step flushes), with the
	// other calls made meanwhile, or with the next console line.
	_ = r.w.buffer(frameCall, encodeCall(callFrame{n: r.calls, name: name, args: raw})...)
	return r.rt.ToValue(p)
}

// callSite returns the innermost frame of the model's own code on the
// current JS stack (the frames above it belong to the prelude).
func (r *jsRun) callSite() (goja.StackFrame, bool) {
	r.frames = r.rt.CaptureCallStack(8, r.frames[:0])
	for _, f := range r.frames {
		if f.SrcName() == sourceName {
			return f, true
		}
	}
	return goja.StackFrame{}, false
}

// settle resolves or rejects the call's promise; it runs on the loop.
func (r *jsRun) settle(s settleFrame) error {
	pc, ok := r.resolvers[s.n]
	if !ok {
		return nil
	}
	delete(r.resolvers, s.n)
	r.pending--
	switch s.kind {
	case settleError:
		var ce callError
		_ = json.Unmarshal(s.body, &ce)
		e, err := r.rt.New(r.help.toolCallError, r.rt.ToValue(pc.name), r.rt.ToValue(ce.Code), r.rt.ToValue(ce.Message))
		if err != nil {
			return err
		}
		if pc.hasSite {
			r.errSites[e] = pc.site
		}
		return pc.reject(e)
	case settleString:
		return pc.resolve(r.rt.ToValue(string(s.body)))
	case settleNull:
		return pc.resolve(goja.Null())
	case settleTrue, settleFalse:
		return pc.resolve(r.rt.ToValue(s.kind == settleTrue))
	}
	v, err := r.jsonParse(goja.Undefined(), r.rt.ToValue(string(s.body)))
	if err != nil {
		return err
	}
	return pc.resolve(v)
}

func (r *jsRun) setTimeout(fn goja.Callable, ms float64) int {
	r.timerSeq++
	id := r.timerSeq
	d := time.Duration(ms * float64(time.Millisecond))
	t := &timer{fn: fn}
	r.timers[id] = t
	r.pending++
	t.t = time.AfterFunc(d, func() {
		r.post(func() error {
			t, ok := r.timers[id]
			if !ok {
				return nil
			}
			delete(r.timers, id)
			r.pending--
			_, err := t.fn(goja.Undefined())
			return err
		})
	})
	return id
}

func (r *jsRun) clearTimeout(id int) {
	if t, ok := r.timers[id]; ok {
		t.t.Stop()
		delete(r.timers, id)
		r.pending--
	}
}

// failure turns an error from a goja call into a Failure.
func (r *jsRun) failure(err error) *Failure {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		f := r.haltFailure()
		f.Line, f.Column = framePosition(ie.Stack())
		return f
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		line, col := framePosition(so.Stack())
		return &Failure{Kind: KindException, Line: line, Column: col,
			Message: fmt.Sprintf("RangeError: maximum call stack size exceeded (%d frames)", r.msg.CallStack)}
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		f := r.thrown(ex.Value())
		if f.Line == 0 {
			f.Line, f.Column = framePosition(ex.Stack())
		}
		return f
	}
	return &Failure{Kind: KindException, Message: err.Error()}
}

// setResult stores the JSON of the program's return value (nothing for
// undefined). A value JSON cannot express (a cycle, a BigInt) is kept as
// its inspected text, and so is one nested deeper than maxResultDepth
// (JSON readers refuse such text).
func (r *jsRun) setResult(v goja.Value) error {
	var raw []byte
	s, err := r.help.serialize(goja.Undefined(), v)
	var ex *goja.Exception
	switch {
	case err == nil && goja.IsUndefined(s):
		return nil
	case err == nil:
		raw = []byte(s.String())
		if d := jsonDepth(raw); d > maxResultDepth {
			raw, _ = json.Marshal(fmt.Sprintf("[the return value nests %d levels deep, more than the %d a result may have; return a flatter value] %s",
				d, maxResultDepth, cutRune(string(raw), 1000, true)))
		}
	case errors.As(err, &ex):
		text, err := r.help.inspect(goja.Undefined(), v)
		if err != nil {
			return err
		}
		raw, _ = json.Marshal(sanitize(text.String()))
	default:
		return err
	}
	if r.out.over(len(raw)) {
		r.halt(outputLimit(r.out.hard))
		return nil
	}
	r.result = raw
	return nil
}
