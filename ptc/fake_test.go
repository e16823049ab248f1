package ptc

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// fakeTool is a tool for tests: fn computes the value from the arguments.
type fakeTool struct {
	name  string
	safe  bool
	delay time.Duration
	fn    func(args map[string]any) (any, error)
}

func (t *fakeTool) Spec() tools.Spec {
	return tools.Spec{Name: t.name, Description: "test tool " + t.name, InputSchema: json.RawMessage(`{"type":"object"}`)}
}
func (t *fakeTool) ConcurrencySafe(json.RawMessage) bool { return t.safe }
func (t *fakeTool) Render(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
func (t *fakeTool) Execute(ctx context.Context, call tools.Call) (any, error) {
	if t.delay > 0 {
		select {
		case <-time.After(t.delay):
		case <-ctx.Done():
			return nil, tools.Errorf(tools.CodeAborted, "cancelled")
		}
	}
	var args map[string]any
	_ = json.Unmarshal(call.Args, &args)
	if t.fn == nil {
		return args, nil
	}
	return t.fn(args)
}

// interval is when one call ran.
type interval struct {
	id         string
	start, end time.Time
}

// fakeDispatcher runs calls directly (no validation or hooks) and records
// when each ran.
type fakeDispatcher struct {
	tools map[string]tools.Tool
	mu    sync.Mutex
	ran   []interval
}

func newFakeDispatcher(ts ...*fakeTool) *fakeDispatcher {
	d := &fakeDispatcher{tools: map[string]tools.Tool{}}
	for _, t := range ts {
		d.tools[t.name] = t
	}
	return d
}

func (d *fakeDispatcher) names() []string {
	var out []string
	for n := range d.tools {
		out = append(out, n)
	}
	return out
}

func (d *fakeDispatcher) Lookup(name string) (tools.Tool, bool) {
	t, ok := d.tools[name]
	return t, ok
}

func (d *fakeDispatcher) Dispatch(ctx context.Context, call tools.Call) tools.Result {
	t, ok := d.tools[call.Name]
	if !ok {
		return tools.Failure(call, tools.Errorf(tools.CodeUnknownTool, "unknown tool %q", call.Name))
	}
	start := time.Now()
	v, err := t.Execute(ctx, call)
	d.mu.Lock()
	d.ran = append(d.ran, interval{call.ID, start, time.Now()})
	d.mu.Unlock()
	if err != nil {
		te, ok := err.(*tools.Error)
		if !ok {
			te = tools.Errorf(tools.CodeToolFailed, "%v", err)
		}
		return tools.Failure(call, te)
	}
	return tools.Result{CallID: call.ID, Name: call.Name, Value: v, Content: t.Render(v)}
}

// recordingSink keeps emitted events in order.
type recordingSink struct {
	mu     sync.Mutex
	events []sinkEvent
}

type sinkEvent struct {
	typ  string
	data any
}

func (s *recordingSink) Emit(typ string, data any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, sinkEvent{typ, data})
	return nil
}

func (s *recordingSink) ofType(typ string) []any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []any
	for _, e := range s.events {
		if e.typ == typ {
			out = append(out, e.data)
		}
	}
	return out
}
