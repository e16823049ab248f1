package ptc

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"
)

// BenchmarkTrivialRun measures a whole run_code run of a trivial program
// (transform, fresh runtime, prelude, run, render) and reports its p50.
func BenchmarkTrivialRun(b *testing.B) {
	d := echoTools()
	times := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		o := Run(context.Background(), Limits{}, Request{CallID: "c", Code: `console.log("hi"); return 1 + 1`, Tools: d.names(), Dispatcher: d})
		_ = Render(o, "")
		times = append(times, time.Since(start))
		if !o.OK() {
			b.Fatal(o.Failure)
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
}

// BenchmarkNestedCallOverhead measures the bridge cost per nested call
// with a no-op tool through the fake dispatcher: the run of 1000
// sequential calls minus a run making none, divided by 1000.
func BenchmarkNestedCallOverhead(b *testing.B) {
	const n = 1000
	d := newFakeDispatcher(&fakeTool{name: "noop", safe: true, fn: func(map[string]any) (any, error) { return nil, nil }})
	code := fmt.Sprintf(`for (let i = 0; i < %d; i++) await tools.noop({})`, n)
	run := func(code string) time.Duration {
		start := time.Now()
		o := Run(context.Background(), Limits{}, Request{CallID: "c", Code: code, Tools: d.names(), Dispatcher: d})
		if !o.OK() {
			b.Fatal(o.Failure)
		}
		return time.Since(start)
	}
	var total time.Duration
	for b.Loop() {
		d.ran = d.ran[:0]
		total += run(code) - run(`for (let i = 0; i < 1000; i++) await Promise.resolve()`)
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(b.N)/n/1000, "µs/call")
}
