package ptc

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestHostileProgramsStopCleanly(t *testing.T) {
	cases := []struct {
		name string
		lim  Limits
		code string
		kind string
		msg  string
	}{
		{"a busy loop stops at the wall time", Limits{Timeout: 100 * time.Millisecond}, "let i = 0;\nwhile (true) { i++ }", KindTimeout, "did not finish within 100ms"},
		{"a promise that never settles is reported at once", Limits{}, "await new Promise(() => {})", KindException, "can never settle"},
		{"a pending timer past the deadline times out", Limits{Timeout: 50 * time.Millisecond}, "await new Promise(r => setTimeout(r, 60000))", KindTimeout, "did not finish"},
		{"a memory bomb stops at the heap budget", Limits{HeapGrowth: 128 << 20}, "let a = [];\nfor (;;) a.push(new Array(1e6))", KindMemoryLimit, "allocated too much memory"},
		{"deep recursion hits the stack limit", Limits{}, "function f(n: number): number { return f(n + 1) + 1 }\nreturn f(0)", KindException, "maximum call stack size"},
		{"100 MB of console.log stops at the output cap", Limits{}, "const s = 'x'.repeat(1 << 20);\nfor (let i = 0; i < 100; i++) console.log(s)", KindOutputLimit, "more than 16 MiB"},
		{"10 000 tool calls stop at the call limit", Limits{}, "for (let i = 0; i < 10000; i++) await tools.echo({ i })", KindCallLimit, "more than 1000 tool calls"},
		{"a huge return value stops at the output cap", Limits{HardOutput: 1 << 20}, "return 'y'.repeat(2 << 20)", KindOutputLimit, "more than 1 MiB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := runCode(t, echoTools(), c.lim, c.code)
			if o.OK() || o.Failure.Kind != c.kind || !strings.Contains(o.Failure.Message, c.msg) {
				t.Fatalf("outcome %+v, want kind %s with %q", o.Failure, c.kind, c.msg)
			}
			if c.kind == KindCallLimit && len(o.Calls) != 1000 {
				t.Fatalf("%d calls recorded, want 1000", len(o.Calls))
			}
			if c.kind == KindTimeout && c.code[0] == 'l' && o.Failure.Line != 2 {
				t.Fatalf("timeout line %d, want 2", o.Failure.Line)
			}
		})
	}
	runtime.GC() // the bombs' garbage must be collectable: nothing holds the runtimes
}

func TestCancellationStopsTheRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(30 * time.Millisecond); cancel() }()
	d := echoTools()
	o := Run(ctx, Limits{}, Request{CallID: "c", Code: "for (;;) {}", Tools: d.names(), Dispatcher: d})
	if o.OK() || o.Failure.Kind != KindAborted {
		t.Fatalf("outcome %+v, want aborted", o.Failure)
	}
}

func TestOutputBeforeAFailureIsKept(t *testing.T) {
	o := runCode(t, echoTools(), Limits{Timeout: 50 * time.Millisecond}, "console.log('step 1');\nawait tools.echo({});\nfor (;;) {}")
	if o.OK() || len(o.Logs) != 1 || len(o.Calls) != 1 || !o.Calls[0].Settled {
		t.Fatalf("outcome %+v logs %v calls %+v", o.Failure, o.Logs, o.Calls)
	}
}

func TestARequestedTimeoutIsCappedAtTheMaximum(t *testing.T) {
	d := echoTools()
	lim := Limits{Timeout: 10 * time.Millisecond, MaxTimeout: 150 * time.Millisecond}
	o := Run(context.Background(), lim, Request{CallID: "c", Code: "for (;;) {}", Tools: d.names(), Dispatcher: d, Timeout: time.Hour})
	if o.OK() || o.Failure.Kind != KindTimeout || !strings.Contains(o.Failure.Message, "within 150ms") {
		t.Fatalf("outcome %+v, want a timeout at the 150ms maximum", o.Failure)
	}
}
