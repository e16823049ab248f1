package ptc

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

func TestSafeCallsUnderPromiseAllOverlap(t *testing.T) {
	d := newFakeDispatcher(&fakeTool{name: "slow", safe: true, delay: 200 * time.Millisecond})
	sink := &recordingSink{}
	o := Run(context.Background(), Limits{}, Request{CallID: "c", Tools: d.names(), Dispatcher: d, Sink: sink,
		Code: `return (await Promise.all([0, 1, 2, 3, 4].map(i => tools.slow({ i })))).length`})
	if !o.OK() || string(o.Result) != "5" {
		t.Fatalf("outcome %+v %s", o.Failure, o.Result)
	}
	// Every call must have started before any call ended: all five overlap.
	var lastStart, firstEnd time.Time
	for i, iv := range d.ran {
		if i == 0 || iv.start.After(lastStart) {
			lastStart = iv.start
		}
		if i == 0 || iv.end.Before(firstEnd) {
			firstEnd = iv.end
		}
	}
	if len(d.ran) != 5 || !lastStart.Before(firstEnd) {
		t.Fatalf("calls did not overlap: %+v", d.ran)
	}
	starts := sink.ofType(session.TypePtcDispatchStart)
	for i, s := range starts {
		if id := s.(session.PtcDispatch).SubCallID; id != fmt.Sprintf("c:ptc:%d", i+1) {
			t.Fatalf("start %d is %s: not in submission order", i, id)
		}
	}
	if n := len(sink.ofType(session.TypePtcDispatch)); len(starts) != 5 || n != 5 {
		t.Fatalf("%d start and %d settle events, want 5 each", len(starts), n)
	}
}

func TestUnsafeCallsRunAlone(t *testing.T) {
	d := newFakeDispatcher(&fakeTool{name: "write", delay: 20 * time.Millisecond})
	o := runCode(t, d, Limits{}, `await Promise.all([1, 2, 3].map(i => tools.write({ i })))`)
	if !o.OK() {
		t.Fatal(o.Failure)
	}
	sort.Slice(d.ran, func(i, j int) bool { return d.ran[i].start.Before(d.ran[j].start) })
	for i := 1; i < len(d.ran); i++ {
		if d.ran[i].start.Before(d.ran[i-1].end) {
			t.Fatalf("exclusive calls overlapped: %+v", d.ran)
		}
		if d.ran[i].id != fmt.Sprintf("call_1:ptc:%d", i+1) {
			t.Fatalf("calls started out of order: %+v", d.ran)
		}
	}
}

func TestDispatchEventsCarryIDsArgumentsAndErrors(t *testing.T) {
	d := echoTools()
	sink := &recordingSink{}
	o := Run(context.Background(), Limits{}, Request{CallID: "root", Tools: d.names(), Dispatcher: d, Sink: sink,
		Code: `console.log("before"); await tools.echo({ a: 1 }); try { await tools.fail({ p: "/x" }) } catch {} console.log("after")`})
	if !o.OK() {
		t.Fatal(o.Failure)
	}
	var types []string
	for _, e := range sink.events {
		types = append(types, e.typ)
	}
	want := []string{session.TypePtcLog, session.TypePtcDispatchStart, session.TypePtcDispatch,
		session.TypePtcDispatchStart, session.TypePtcDispatch, session.TypePtcLog}
	if fmt.Sprint(types) != fmt.Sprint(want) {
		t.Fatalf("events %v, want %v", types, want)
	}
	settled := sink.events[4].data.(session.PtcDispatch)
	if settled.SubCallID != "root:ptc:2" || settled.RootCallID != "root" || settled.ParentCallID != "root" ||
		settled.Arguments != `{"p":"/x"}` || !settled.IsError || settled.Error.Code != tools.CodeInvalidArgs {
		t.Fatalf("settle event %+v", settled)
	}
	if len(o.Calls) != 2 || o.Calls[1].Code != tools.CodeInvalidArgs || !o.Calls[0].Settled {
		t.Fatalf("calls %+v", o.Calls)
	}
}

func TestPendingCallsAreCancelledWhenTheProgramEnds(t *testing.T) {
	started := make(chan struct{})
	d := newFakeDispatcher(
		&fakeTool{name: "slow", safe: true},
		&fakeTool{name: "started", safe: true, fn: func(map[string]any) (any, error) { <-started; return nil, nil }},
		&fakeTool{name: "after"}, // exclusive: queued behind the running slow call
	)
	d.tools["slow"] = &blockingTool{fakeTool: d.tools["slow"].(*fakeTool), started: started}
	sink := &recordingSink{}
	o := Run(context.Background(), Limits{}, Request{CallID: "c", Tools: d.names(), Dispatcher: d, Sink: sink,
		Code: `tools.slow({}).catch(() => {}); await tools.started({}); tools.after({}).catch(() => {}); return "done"`})
	if !o.OK() {
		t.Fatal(o.Failure)
	}
	if len(o.Calls) != 3 {
		t.Fatalf("calls %+v", o.Calls)
	}
	if c := o.Calls[0]; !c.Started || !c.IsError || c.Code != tools.CodeAborted {
		t.Fatalf("running call not aborted: %+v", c)
	}
	if c := o.Calls[2]; c.Started || c.Code != tools.CodeAbortedBeforeDispatch {
		t.Fatalf("queued call started: %+v", c)
	}
	if n := len(sink.ofType(session.TypePtcDispatch)); n != 2 {
		t.Fatalf("%d settle events, want 2 (the started calls)", n)
	}
}

// blockingTool signals when it starts and then waits for cancellation.
type blockingTool struct {
	*fakeTool
	started chan struct{}
}

func (b *blockingTool) Execute(ctx context.Context, _ tools.Call) (any, error) {
	close(b.started)
	<-ctx.Done()
	return nil, tools.Errorf(tools.CodeAborted, "cancelled")
}

func TestApprovalWaitPausesTheProgramInPlace(t *testing.T) {
	release := make(chan struct{})
	d := newFakeDispatcher(&fakeTool{name: "ask", fn: func(map[string]any) (any, error) {
		<-release // an approval prompt waiting for the user
		return "yes", nil
	}})
	go func() { time.Sleep(50 * time.Millisecond); close(release) }()
	o := runCode(t, d, Limits{}, `const a = await tools.ask({}); return a + "!"`)
	if !o.OK() || string(o.Result) != `"yes!"` {
		t.Fatalf("%+v %s", o.Failure, o.Result)
	}
}

func TestToolValuesReachTheProgramAsTheirJSON(t *testing.T) {
	cases := []struct {
		name  string
		value any
		want  string
	}{
		{"a string stays a string", "a <b> & \"c\" ✓", `["string","a <b> & \"c\" ✓"]`},
		{"an empty string stays a string", "", `["string",""]`},
		{"invalid UTF-8 is repaired as JSON would", "a\xffb", "[\"string\",\"a\ufffdb\"]"},
		{"true is a boolean", true, `["boolean",true]`},
		{"nil is null", nil, `["object",null]`},
		{"a number is a number", 2.5, `["number",2.5]`},
		{"a struct goes through its JSON tags", struct {
			N int `json:"n"`
		}{3}, `["object",{"n":3}]`},
		{"raw JSON is parsed", json.RawMessage(`[1,"x"]`), `["object",[1,"x"]]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := newFakeDispatcher(&fakeTool{name: "value", fn: func(map[string]any) (any, error) { return tc.value, nil }})
			o := runCode(t, d, Limits{}, `const v = await tools.value({}); return [typeof v, v]`)
			if !o.OK() {
				t.Fatal(o.Failure)
			}
			if string(o.Result) != tc.want {
				t.Fatalf("result %s, want %s", o.Result, tc.want)
			}
		})
	}
}

func TestMixedCallsStartInProgramOrder(t *testing.T) {
	d := newFakeDispatcher(
		&fakeTool{name: "read", safe: true, delay: 5 * time.Millisecond},
		&fakeTool{name: "write", delay: 5 * time.Millisecond},
	)
	sink := &recordingSink{}
	o := Run(context.Background(), Limits{Parallel: 2}, Request{CallID: "m", Tools: d.names(), Dispatcher: d, Sink: sink,
		Code: `const order = ["read", "read", "read", "write", "read", "write", "write", "read", "read"];
await Promise.all(order.map(n => tools[n]({})));
for (const n of order) await tools[n]({})`})
	if !o.OK() {
		t.Fatal(o.Failure)
	}
	starts := sink.ofType(session.TypePtcDispatchStart)
	if len(starts) != 18 {
		t.Fatalf("%d start events, want 18", len(starts))
	}
	for i, s := range starts {
		if id := s.(session.PtcDispatch).SubCallID; id != fmt.Sprintf("m:ptc:%d", i+1) {
			t.Fatalf("start %d is %s: not in program order", i, id)
		}
	}
	byID := map[string]interval{}
	for _, iv := range d.ran {
		byID[iv.id] = iv
	}
	for _, w := range []int{4, 6, 7, 13, 15, 16} { // the writes
		wr := byID[fmt.Sprintf("m:ptc:%d", w)]
		for id, iv := range byID {
			if id != wr.id && iv.start.Before(wr.end) && wr.start.Before(iv.end) {
				t.Fatalf("write %s overlapped %s", wr.id, id)
			}
		}
	}
	var running, most int
	type edge struct {
		at    time.Time
		delta int
	}
	var edges []edge
	for _, iv := range d.ran {
		edges = append(edges, edge{iv.start, 1}, edge{iv.end, -1})
	}
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].at.Equal(edges[j].at) {
			return edges[i].delta < edges[j].delta
		}
		return edges[i].at.Before(edges[j].at)
	})
	for _, e := range edges {
		running += e.delta
		most = max(most, running)
	}
	if most > 2 {
		t.Fatalf("%d calls ran at once with a pool of 2", most)
	}
}
