package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/toolstest"
)

// BenchmarkNestedCallRealRunner measures the cost of one nested no-op call
// through the whole pipeline a session uses: run_code dispatched by a real
// tools.Runner (input and output validation, a pre and a post hook,
// rendering, the Gate, dispatch events to a Sink), the no-op tool declared
// with tools.New. It is a program of n calls minus one awaiting n resolved
// promises, over n; "seq" awaits each call, "all" batches them with
// Promise.all.
func BenchmarkNestedCallRealRunner(b *testing.B) {
	const n = 1000
	for _, bc := range []struct{ name, calls string }{
		{"seq", fmt.Sprintf(`for (let i = 0; i < %d; i++) await tools.noop({ text: "x" })`, n)},
		{"all", fmt.Sprintf(`const ps = []; for (let i = 0; i < %d; i++) ps.push(tools.noop({ text: "x" })); await Promise.all(ps)`, n)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			reg, err := tools.NewRegistry(tools.PresentPTC, NewRunCode(RunCodeConfig{}), Noop())
			if err != nil {
				b.Fatal(err)
			}
			sink := &toolstest.Sink{}
			runner := tools.NewRunner(reg, tools.RunnerConfig{
				Approvals: tools.NewApprovals(tools.PolicyNever),
				Env:       &tools.Env{Sink: sink},
				Hooks: []tools.Hook{{
					Pre:  func(context.Context, tools.Call) tools.Verdict { return tools.Verdict{} },
					Post: func(_ context.Context, _ tools.Call, o tools.Outcome) tools.Outcome { return o },
				}},
			})
			run := func(code string, events int) time.Duration {
				raw, _ := json.Marshal(map[string]string{"code": code, "description": "bench"})
				sink.Reset()
				start := time.Now()
				res := runner.Dispatch(context.Background(), tools.Call{ID: "bench", Name: tools.RunCodeName, Raw: string(raw)})
				took := time.Since(start)
				if res.IsError {
					b.Fatal(res.Content)
				}
				if got := sink.Count("tool/ptc-dispatch"); got != events {
					b.Fatalf("got %d tool/ptc-dispatch events, want %d", got, events)
				}
				return took
			}
			baseline := fmt.Sprintf(`for (let i = 0; i < %d; i++) await Promise.resolve()`, n)
			var total time.Duration
			for b.Loop() {
				total += run(bc.calls, n) - run(baseline, 0)
			}
			b.ReportMetric(float64(total.Nanoseconds())/float64(b.N)/n/1000, "µs/call")
		})
	}
}
