package tools_test

import (
	"context"
	"testing"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/toolbox"
)

// BenchmarkDispatchNoop measures the per-call overhead of the pipeline:
// lookup, argument parsing and validation, a pre and a post hook, the
// execute goroutine, output validation and rendering, around a body that
// does nothing.
func BenchmarkDispatchNoop(b *testing.B) {
	reg, err := tools.NewRegistry(tools.PresentNative, toolbox.Noop())
	if err != nil {
		b.Fatal(err)
	}
	run := tools.NewRunner(reg, tools.RunnerConfig{Hooks: []tools.Hook{{
		Pre:  func(context.Context, tools.Call) tools.Verdict { return tools.Verdict{} },
		Post: func(_ context.Context, _ tools.Call, o tools.Outcome) tools.Outcome { return o },
	}}})
	call := tools.Call{ID: "c1", Name: toolbox.NoopName, Raw: `{"text":"hello"}`}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := run.Dispatch(ctx, call); res.IsError {
			b.Fatal(res.Content)
		}
	}
}

// BenchmarkRunStepNoop measures one step of ten safe no-op calls.
func BenchmarkRunStepNoop(b *testing.B) {
	reg, err := tools.NewRegistry(tools.PresentNative, toolbox.Noop())
	if err != nil {
		b.Fatal(err)
	}
	run := tools.NewRunner(reg, tools.RunnerConfig{})
	calls := make([]tools.Call, 10)
	for i := range calls {
		calls[i] = tools.Call{ID: "c", Name: toolbox.NoopName, Raw: `{"text":"hello"}`}
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		run.RunStep(ctx, calls, nil)
	}
}
