package ptc

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/ptc-dev/ptc/runtime/tools"
)

//go:embed prelude.js
var preludeSource string

// prelude is compiled once per process; a Program can run in any runtime.
var prelude = goja.MustCompile("prelude.js", preludeSource, true)

// helpers are the prelude's functions the host calls.
type helpers struct {
	toolCallError goja.Value
	inspect       goja.Callable
	serialize     goja.Callable
	describe      goja.Callable
	stackOf       goja.Callable
}

// job is work posted to the loop goroutine; only the loop touches the
// runtime. A returned error is uncatchable (an interrupt, a stack overflow)
// and ends the run.
type job func() error

// run is the state of one program execution. Fields below "loop-only" are
// touched only by the goroutine that runs the event loop.
type run struct {
	rt     *goja.Runtime
	lim    Limits
	req    Request
	ctx    context.Context // cancelled when the run ends: aborts pending calls
	cancel context.CancelFunc

	jobs     chan job
	loopDone chan struct{}

	haltOnce sync.Once
	halted   chan struct{}
	haltWhy  *Failure

	out  *output
	br   *bridge
	help helpers

	// loop-only
	pending   int // tool calls and timers that may still post a job
	resolvers map[int]resolver
	timers    map[int]*timer
	timerSeq  int
	rejected  map[*goja.Promise]goja.Value
	errSites  map[*goja.Object]goja.StackFrame // ToolCallErrors → their call sites
	jsonParse goja.Callable
}

type resolver struct {
	resolve, reject func(any) error
}

type timer struct {
	t  *time.Timer
	fn goja.Callable
}

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

// Run executes one program in a fresh goja runtime and reports what it did.
// It never returns a Go error: every way a program can stop is an Outcome
// with a Failure. Nested calls still running when the program ends are
// cancelled and drained before Run returns, so all dispatch events have
// been emitted by then.
func Run(ctx context.Context, lim Limits, req Request) *Outcome {
	lim = lim.withDefaults()
	prog, f := compile(req.Code, req.Tools)
	if f != nil {
		return &Outcome{Logs: []string{}, Failure: f, Calls: []CallRecord{}}
	}
	timeout := lim.Timeout
	if req.Timeout > 0 {
		timeout = min(req.Timeout, lim.MaxTimeout)
	}
	r := &run{
		rt:        goja.New(),
		lim:       lim,
		req:       req,
		jobs:      make(chan job, 64),
		loopDone:  make(chan struct{}),
		halted:    make(chan struct{}),
		resolvers: map[int]resolver{},
		timers:    map[int]*timer{},
		rejected:  map[*goja.Promise]goja.Value{},
		errSites:  map[*goja.Object]goja.StackFrame{},
	}
	r.ctx, r.cancel = context.WithCancel(ctx)
	em := &emitter{sink: req.Sink}
	r.out = newOutput(lim.HardOutput, req.CallID, em, r.halt)
	r.br = newBridge(r, em)

	stopWatch := r.watch(ctx, timeout)
	failure := r.execute(prog)
	close(r.loopDone)
	stopWatch()
	r.cancel()
	for _, t := range r.timers {
		t.t.Stop()
	}
	r.br.drain()

	o := &Outcome{Failure: failure, Calls: r.br.records()}
	o.Logs, o.Truncated = r.out.lines()
	if failure == nil {
		o.Result = r.out.result
	}
	return o
}

// halt stops the program from any goroutine; the first reason wins.
func (r *run) halt(f *Failure) {
	r.haltOnce.Do(func() {
		r.haltWhy = f
		r.rt.Interrupt(f)
		close(r.halted)
	})
}

// watch enforces wall time, cancellation and the heap budget until the
// returned function is called.
func (r *run) watch(ctx context.Context, timeout time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		deadline := time.NewTimer(timeout)
		defer deadline.Stop()
		heap := newHeapWatch(r.lim.HeapGrowth)
		tick := time.NewTicker(r.lim.HeapSample)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				r.halt(&Failure{Kind: KindAborted, Message: "the run was cancelled before the program finished"})
				return
			case <-deadline.C:
				r.halt(&Failure{Kind: KindTimeout, Message: fmt.Sprintf("the program did not finish within %s", timeout)})
				return
			case <-tick.C:
				if grown, over := heap.over(); over {
					r.halt(&Failure{Kind: KindMemoryLimit, Message: fmt.Sprintf(
						"the program allocated too much memory (heap grew by %d MiB, limit %d MiB); process data in smaller pieces",
						grown>>20, r.lim.HeapGrowth>>20)})
					return
				}
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// execute runs the program and its event loop; it returns nil when the
// program completed.
func (r *run) execute(prog *goja.Program) *Failure {
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
		if r.pending == 0 {
			return &Failure{Kind: KindException, Message: "the program is waiting for a promise that can never settle " +
				"(no tool call or timer is pending); make sure every Promise you await is resolved"}
		}
		select {
		case j := <-r.jobs:
			if err := j(); err != nil {
				return r.failure(err)
			}
		case <-r.halted:
			return r.haltWhy
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
	if err := r.out.setResult(r.help, p.Result()); err != nil {
		return r.failure(err)
	}
	select {
	case <-r.halted: // the result itself went over the output cap
		return r.haltWhy
	default:
	}
	return nil
}

// setup installs the bindings in the fresh runtime.
func (r *run) setup() *Failure {
	rt := r.rt
	rt.SetMaxCallStackSize(r.lim.CallStack)
	rt.SetPromiseRejectionTracker(func(p *goja.Promise, op goja.PromiseRejectionOperation) {
		if op == goja.PromiseRejectionReject {
			r.rejected[p] = p.Result()
		} else {
			delete(r.rejected, p)
		}
	})
	names := make([]any, len(r.req.Tools))
	for i, n := range r.req.Tools {
		names[i] = n
	}
	host := rt.NewObject()
	must(host.Set("names", names))
	must(host.Set("log", func(level, text string) { r.out.log(level, text) }))
	// call takes the FunctionCall form: goja calls it without reflection.
	must(host.Set("call", func(fc goja.FunctionCall) goja.Value {
		return r.br.call(fc.Argument(0).String(), fc.Argument(1).String())
	}))
	must(host.Set("setTimeout", r.setTimeout))
	must(host.Set("clearTimeout", r.clearTimeout))

	fv, err := rt.RunProgram(prelude)
	if err != nil {
		return r.failure(err)
	}
	fn, _ := goja.AssertFunction(fv)
	hv, err := fn(goja.Undefined(), host)
	if err != nil {
		return r.failure(err)
	}
	h := hv.ToObject(rt)
	get := func(name string) goja.Callable {
		f, _ := goja.AssertFunction(h.Get(name))
		return f
	}
	r.jsonParse, _ = goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("parse"))
	r.help = helpers{
		toolCallError: h.Get("ToolCallError"),
		inspect:       get("inspect"),
		serialize:     get("serialize"),
		describe:      get("describe"),
		stackOf:       get("stackOf"),
	}
	return nil
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// post hands a job to the loop; it gives up once the loop has ended.
func (r *run) post(j job) {
	select {
	case r.jobs <- j:
	case <-r.loopDone:
	}
}

func (r *run) setTimeout(fn goja.Callable, ms float64) int {
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

func (r *run) clearTimeout(id int) {
	if t, ok := r.timers[id]; ok {
		t.t.Stop()
		delete(r.timers, id)
		r.pending--
	}
}

// positionRe finds "program.ts:LINE:COL" in goja stack text; goja maps
// positions through the inline source map, so these are TypeScript lines
// (with 0-based columns).
var positionRe = regexp.MustCompile(sourceName + `:(\d+):(\d+)`)

func position(stack string) (line, col int) {
	m := positionRe.FindStringSubmatch(stack)
	if m == nil {
		return 0, 0
	}
	line, _ = strconv.Atoi(m[1])
	col, _ = strconv.Atoi(m[2])
	return line, mappedColumn(line, col)
}

// mappedColumn turns a 0-based column from the source map into the
// model's 1-based column (line 1 carries the wrapper's opening).
func mappedColumn(line, col int) int {
	if line == 1 {
		col -= len(wrapOpen)
	}
	return max(col+1, 1)
}

// failure turns an error from a goja call into a Failure.
func (r *run) failure(err error) *Failure {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		f := *r.haltWhy
		f.Line, f.Column = position(ie.String())
		return &f
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		line, col := position(so.String())
		return &Failure{Kind: KindException, Line: line, Column: col,
			Message: fmt.Sprintf("RangeError: maximum call stack size exceeded (%d frames)", r.lim.CallStack)}
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		f := r.thrown(ex.Value())
		if f.Line == 0 {
			f.Line, f.Column = position(ex.String())
		}
		return f
	}
	return &Failure{Kind: KindException, Message: err.Error()}
}

// thrown describes a value the program threw or rejected with.
func (r *run) thrown(v goja.Value) *Failure {
	f := &Failure{Kind: KindException, Message: "Uncaught exception"}
	if d, err := r.help.describe(goja.Undefined(), v); err == nil {
		f.Message = d.String()
	}
	if s, err := r.help.stackOf(goja.Undefined(), v); err == nil {
		f.Line, f.Column = position(s.String())
	}
	if o, ok := v.(*goja.Object); ok && f.Line == 0 {
		if site, ok := r.errSites[o]; ok {
			p := site.Position()
			f.Line, f.Column = p.Line, mappedColumn(p.Line, p.Column)
		}
	}
	return f
}
