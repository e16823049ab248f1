package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/ptc-dev/ptc/ptc"
	"github.com/ptc-dev/ptc/ptc/jsbench"
)

// JSResult is run_code against Node on the jsbench workloads, measured in
// the same run, interleaved.
type JSResult struct {
	// Scale multiplies the workloads' sizes (1 in a full run).
	Scale   float64 `json:"scale"`
	Samples int     `json:"samples"`
	// Node is false when node is not installed (no ratios then).
	Node bool          `json:"node"`
	Rows []jsbench.Row `json:"rows"`
	// WorstRatio is the largest goja/node ratio of the rows.
	WorstRatio float64 `json:"worst_ratio"`
	// AllSame is true when every row's results agreed.
	AllSame bool `json:"all_same"`
	// Seconds is the wall time of the whole section.
	Seconds float64 `json:"seconds"`
}

// jsLimits leave room for the largest workload, whose whole result comes
// back to be compared.
var jsLimits = ptc.Limits{Timeout: 5 * time.Minute, HeapGrowth: 2 << 30, HardOutput: 64 << 20}

func runJS(ctx context.Context, scale float64, samples int) (r JSResult, err error) {
	start := time.Now()
	r = JSResult{Scale: scale, Samples: samples, AllSame: true}
	defer func() { r.Seconds = time.Since(start).Seconds() }()
	goja := func(ctx context.Context, code string) ([]byte, error) {
		o := ptc.Run(ctx, jsLimits, ptc.Request{CallID: "bench", Code: code})
		if !o.OK() {
			return nil, fmt.Errorf("%s: %s", o.Failure.Kind, o.Failure.Message)
		}
		return o.Result, nil
	}
	var node jsbench.Runner
	if p := jsbench.FindNode(); p != "" {
		node, r.Node = jsbench.NodeRunner(p), true
	}
	for _, w := range jsbench.Workloads {
		var row jsbench.Row
		row, err = jsbench.Measure(ctx, w, scale, samples, goja, node)
		if err != nil {
			return r, err
		}
		r.Rows = append(r.Rows, row)
		r.WorstRatio = max(r.WorstRatio, row.Ratio)
		r.AllSame = r.AllSame && row.Same
	}
	return r, nil
}
