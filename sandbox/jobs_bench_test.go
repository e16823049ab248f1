package sandbox

import (
	"context"
	"io"
	"sort"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/jobs"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// BenchmarkBackgroundStart compares, in one run, a host program run in
// the foreground (RunIn: until it exits, which is when its output is
// there) with the same program started as a background job (a
// jobs.Manager over RunStream, as bash run_in_background does) until its
// first output reaches the job's log; the job then keeps running until
// it is killed, outside the timing. Both use the session's network
// namespace, as a session's calls do. Metrics: fg-ms and bg-first-ms
// (medians) and bg/fg, their ratio.
func BenchmarkBackgroundStart(b *testing.B) {
	h := hostProgs(b)
	ws := benchTree(b)
	scope := Scope{Workspace: ws, Mode: WorkspaceWrite, Session: "bench-jobs"}
	defer h.EndSession(scope.Session)
	m, err := jobs.New(jobs.Config{Dir: b.TempDir(), Max: 4})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	key, _ := newKey(scope)
	p := h.pool(key)
	settle := func() {
		for len(p.ready) < p.size {
			p.refill()
			time.Sleep(time.Millisecond)
		}
	}
	ctx := context.Background()
	runIn := func(cmd string) {
		if o, err := h.RunIn(ctx, scope, proto.Request{Op: proto.OpShell, Command: cmd}); err != nil || o.ExitCode != 0 {
			b.Fatalf("%v exit %d: %s", err, o.ExitCode, o.Stderr)
		}
	}
	runIn("dash -c 'echo warm'") // starts the session's network namespace
	var fg, bg []time.Duration
	for b.Loop() {
		b.StopTimer()
		settle()
		b.StartTimer()
		start := time.Now()
		runIn("dash -c 'echo first'")
		fg = append(fg, time.Since(start))

		b.StopTimer()
		settle()
		b.StartTimer()
		start = time.Now()
		info, err := m.Start(jobs.Spec{Command: "dash -c 'echo first; sleep 600'", Run: func(ctx context.Context, w io.Writer) (int, string, error) {
			o, err := h.RunStream(ctx, scope, proto.Request{Op: proto.OpShell, Command: "dash -c 'echo first; sleep 600'"}, w)
			return o.ExitCode, o.Note, err
		}})
		if err != nil {
			b.Fatal(err)
		}
		for {
			out, err := m.Read(ctx, info.ID, time.Minute, 0)
			if err != nil {
				b.Fatal(err)
			}
			if out.New != "" {
				break
			}
		}
		bg = append(bg, time.Since(start))
		b.StopTimer()
		if _, err := m.Kill(info.ID, "bench"); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	med := func(d []time.Duration) float64 {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return float64(d[len(d)/2].Microseconds()) / 1000
	}
	f, g := med(fg), med(bg)
	b.ReportMetric(f, "fg-ms")
	b.ReportMetric(g, "bg-first-ms")
	b.ReportMetric(g/f, "bg/fg")
}
