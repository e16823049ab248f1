package ptc

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/ptc/jsbench"
)

// benchLimits are roomy enough for the largest workload (its result is
// returned whole, so that the engines' outputs are compared byte for byte).
var benchLimits = Limits{Timeout: 5 * time.Minute, HeapGrowth: 2 << 30, HardOutput: 64 << 20}

// gojaRunner runs a workload through Run, with the engine's fast paths.
func gojaRunner(ctx context.Context, code string) ([]byte, error) {
	o := Run(ctx, benchLimits, Request{CallID: "bench", Code: code})
	if !o.OK() {
		return nil, fmt.Errorf("%s: %s", o.Failure.Kind, o.Failure.Message)
	}
	return o.Result, nil
}

// BenchmarkPostProcessing runs every jsbench workload through Run and,
// when node is installed, in Node in the same run, interleaved, and
// prints the table with the ratio; b.N is the number of runs of each
// engine (each figure is the best of them). The results of the two
// engines must be identical.
func BenchmarkPostProcessing(b *testing.B) {
	var node jsbench.Runner
	if p := jsbench.FindNode(); p != "" {
		node = jsbench.NodeRunner(p)
	}
	lines := make([]string, len(jsbench.Workloads)) // a sub-benchmark may run more than once: the last run's line
	for i, w := range jsbench.Workloads {
		b.Run(w.Name, func(b *testing.B) {
			row, err := jsbench.Measure(context.Background(), w, 1, b.N, gojaRunner, node)
			if err != nil {
				b.Fatal(err)
			}
			if !row.Same {
				b.Fatalf("goja and node returned different results (first: %d bytes, sha256 %s)", row.ResultBytes, row.Result)
			}
			b.ReportMetric(row.GojaMs, "goja-ms")
			line := fmt.Sprintf("%-56s %10.0f %10s %7s\n", w.Name, row.GojaMs, "-", "-")
			if node != nil {
				b.ReportMetric(row.NodeMs, "node-ms")
				b.ReportMetric(row.Ratio, "ratio")
				line = fmt.Sprintf("%-56s %10.0f %10.0f %6.1fx\n", w.Name, row.GojaMs, row.NodeMs, row.Ratio)
			}
			lines[i] = line
		})
	}
	b.Logf("\n%-56s %10s %10s %7s\n%s", "job", "goja ms", "node ms", "ratio", strings.Join(lines, ""))
}
