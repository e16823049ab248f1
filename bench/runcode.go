package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/toolbox"
)

// RunCodeResult is the cost of run_code through the tools Runner.
type RunCodeResult struct {
	Samples int `json:"samples"`
	// TrivialP50 is a program that logs and returns a constant.
	TrivialP50 float64 `json:"trivial_p50_ms"`
	// NestedCallUs is the cost of one nested no-op call through the full
	// pipeline (bridge, validation, hooks, render): a program of N calls
	// minus one awaiting N resolved promises, over N.
	NestedCallUs float64 `json:"nested_call_us"`
	NestedCalls  int     `json:"nested_calls"`
}

func runRunCode(ctx context.Context, samples, nested int) (RunCodeResult, error) {
	reg, err := tools.NewRegistry(tools.PresentBoth, toolbox.NewRunCode(toolbox.RunCodeConfig{}), toolbox.Noop())
	if err != nil {
		return RunCodeResult{}, err
	}
	runner := tools.NewRunner(reg, tools.RunnerConfig{Approvals: tools.NewApprovals(tools.PolicyNever)})
	program := func(code string) (time.Duration, error) {
		raw, _ := json.Marshal(map[string]string{"code": code, "description": "bench"})
		start := time.Now()
		res := runner.Dispatch(ctx, tools.Call{ID: "bench", Name: tools.RunCodeName, Raw: string(raw)})
		took := time.Since(start)
		if res.IsError {
			return 0, fmt.Errorf("run_code failed: %v", res.Content)
		}
		return took, nil
	}
	r := RunCodeResult{Samples: samples, NestedCalls: nested}
	var trivial []time.Duration
	for i := range samples + 3 {
		d, err := program(`console.log("hi"); return 1 + 1`)
		if err != nil {
			return r, err
		}
		if i >= 3 {
			trivial = append(trivial, d)
		}
	}
	r.TrivialP50 = percentiles(trivial).P50
	calls := fmt.Sprintf(`for (let i = 0; i < %d; i++) await tools.%s({ text: "x" })`, nested, toolbox.NoopName)
	awaits := fmt.Sprintf(`for (let i = 0; i < %d; i++) await Promise.resolve()`, nested)
	var withCalls, without []time.Duration
	for range 5 {
		a, err := program(calls)
		if err != nil {
			return r, err
		}
		b, err := program(awaits)
		if err != nil {
			return r, err
		}
		withCalls, without = append(withCalls, a), append(without, b)
	}
	diff := percentiles(withCalls).P50 - percentiles(without).P50
	r.NestedCallUs = diff * 1000 / float64(nested)
	return r, nil
}
