package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ptc-dev/ptc/sandbox/internal/testguest"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// benchTree is a small workspace for grep.
func benchTree(b testing.TB) string {
	ws, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for i := range 20 {
		body := fmt.Sprintf("line one\nfoo %d\nline three\n", i)
		if err := os.WriteFile(filepath.Join(ws, fmt.Sprintf("f%02d.txt", i)), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return ws
}

// reportPercentiles records p50/p99 of the samples as benchmark metrics.
func reportPercentiles(b *testing.B, d []time.Duration) {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	p := func(q float64) float64 { return float64(d[int(q*float64(len(d)-1))].Microseconds()) / 1000 }
	b.ReportMetric(p(0.50), "p50-ms")
	b.ReportMetric(p(0.99), "p99-ms")
}

// benchGuest times h.Run of cmd per iteration. With waitRefill it lets
// the pool refill between calls, as when a model thinks for seconds
// between tool calls; without it calls come back to back and show what
// happens when the pool runs dry.
func benchGuest(b *testing.B, h *Host, cmd string, waitRefill bool) {
	ws := benchTree(b)
	ctx := context.Background()
	if err := h.Ready(ctx); err != nil {
		b.Fatal(err)
	}
	key, _ := newKey(Scope{Workspace: ws, Mode: WorkspaceWrite})
	p := h.pool(key)
	waitFull := func() {
		for len(p.ready) < p.size {
			p.refill() // a failed fill is retried in the background
			time.Sleep(time.Millisecond)
		}
	}
	_ = h.Prewarm(ws, WorkspaceWrite)
	waitFull()
	var d []time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		o, err := h.Run(ctx, ws, WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: cmd})
		d = append(d, time.Since(start))
		if err != nil || o.ExitCode != 0 {
			b.Fatalf("%v %d %s", err, o.ExitCode, o.Stderr)
		}
		if waitRefill {
			waitFull()
		}
	}
	reportPercentiles(b, d)
}

// benchCmds are the commands the targets name; grep needs the guest's
// grep builtin.
var benchCmds = []string{"echo hi", "grep -rn foo ."}

// BenchmarkPooled is the common case: a ready instance per call.
func BenchmarkPooled(b *testing.B) {
	h := NewHost(Config{})
	defer h.Close(context.Background())
	for _, c := range benchCmds {
		b.Run(c, func(b *testing.B) { benchGuest(b, h, c, true) })
	}
}

// BenchmarkPooledBackToBack issues calls without pause, so the pool
// drains after PoolSize calls and each call then waits for a refill.
func BenchmarkPooledBackToBack(b *testing.B) {
	h := NewHost(Config{})
	defer h.Close(context.Background())
	for _, c := range benchCmds {
		b.Run(c, func(b *testing.B) { benchGuest(b, h, c, false) })
	}
}

// BenchmarkFreshInstance instantiates an instance inside every call.
func BenchmarkFreshInstance(b *testing.B) {
	h := NewHost(Config{PoolSize: -1})
	defer h.Close(context.Background())
	for _, c := range benchCmds {
		b.Run(c, func(b *testing.B) { benchGuest(b, h, c, false) })
	}
}

// BenchmarkHostBash is the reference: the host's own bash -c.
func BenchmarkHostBash(b *testing.B) {
	for _, c := range benchCmds {
		b.Run(c, func(b *testing.B) {
			ws := benchTree(b)
			var d []time.Duration
			for b.Loop() {
				start := time.Now()
				cmd := exec.Command("/bin/bash", "-c", c)
				cmd.Dir = ws
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v %s", err, out)
				}
				d = append(d, time.Since(start))
			}
			reportPercentiles(b, d)
		})
	}
}

// hostBenchCmds are host programs timed three ways: run directly, under a
// bare bwrap (new namespaces, the system read-only, nothing else), and as
// a guest command through the sandbox (bwrap, the helper's overlays and
// the change streams, the guest's pipes). true is a builtin of every
// shell, so the trivial program is dash running it.
var hostBenchCmds = [][]string{{"dash", "-c", "true"}, {"go", "version"}, {"git", "--version"}}

func BenchmarkHostProgram(b *testing.B) {
	requireBwrap(b)
	h := hostProgs(b)
	ws := benchTree(b)
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		b.Skip("no bwrap")
	}
	for _, argv := range hostBenchCmds {
		path, err := exec.LookPath(argv[0])
		if err != nil {
			b.Logf("skipping %s: %v", argv[0], err)
			continue
		}
		name := strings.Join(argv, " ")
		b.Run(name+"/direct", func(b *testing.B) {
			timeRuns(b, func() error {
				cmd := exec.Command(path, argv[1:]...)
				cmd.Dir = ws
				return cmd.Run()
			})
		})
		b.Run(name+"/bare-bwrap", func(b *testing.B) {
			args := []string{"--unshare-all", "--die-with-parent", "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc",
				"--proc", "/proc", "--dev", "/dev", "--ro-bind", ws, ws, "--chdir", ws}
			for _, l := range []string{"/bin", "/lib", "/lib64", "/sbin"} {
				if t, err := os.Readlink(l); err == nil {
					args = append(args, "--symlink", t, l)
				}
			}
			args = append(append(args, "--", path), argv[1:]...)
			timeRuns(b, func() error { return exec.Command(bwrap, args...).Run() })
		})
		b.Run(name+"/sandbox", func(b *testing.B) {
			ctx := context.Background()
			scope := Scope{Workspace: ws, Mode: WorkspaceWrite}
			key, _ := newKey(scope)
			p := h.pool(key)
			var d []time.Duration
			for b.Loop() {
				// As between a model's calls: a ready instance, no refill
				// competing for the CPU (BenchmarkPooled does the same).
				b.StopTimer()
				for len(p.ready) < p.size {
					p.refill()
					time.Sleep(time.Millisecond)
				}
				b.StartTimer()
				start := time.Now()
				o, err := h.RunIn(ctx, scope, proto.Request{Op: proto.OpShell, Command: name})
				d = append(d, time.Since(start))
				if err != nil || o.ExitCode != 0 {
					b.Fatalf("%v exit %d: %s", err, o.ExitCode, o.Stderr)
				}
			}
			reportPercentiles(b, d)
		})
	}
}

// timeRuns times run per iteration and reports p50/p99.
func timeRuns(b *testing.B, run func() error) {
	var d []time.Duration
	for b.Loop() {
		start := time.Now()
		if err := run(); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(start))
	}
	reportPercentiles(b, d)
}

// BenchmarkDeepTree walks and removes a chain of nested directories
// through the guest, at several depths: the cost per level should stay
// nearly flat (the directory cache keeps each path op at a few system
// calls; what grows is only the path strings themselves).
func BenchmarkDeepTree(b *testing.B) {
	wasm := testguest.Shell(b)
	h := NewHost(Config{Guest: func() []byte { return wasm }})
	defer h.Close(context.Background())
	for _, depth := range []int{500, 1000, 2000, 4000} {
		for _, cmd := range []string{"find . -name nothing", "rm -rf d"} {
			b.Run(fmt.Sprintf("%s/%d", strings.Fields(cmd)[0], depth), func(b *testing.B) {
				ws := b.TempDir()
				for b.Loop() {
					b.StopTimer()
					chain(b, ws, depth)
					b.StartTimer()
					o, err := h.Run(context.Background(), ws, WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: cmd})
					if err != nil || o.ExitCode != 0 {
						b.Fatalf("%v exit %d %s", err, o.ExitCode, o.Stderr)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(depth), "µs/level")
			})
		}
	}
}

// chain makes ws/d/d/... depth levels deep (by descriptors: the path is
// longer than PATH_MAX), if it is not there yet.
func chain(b *testing.B, ws string, depth int) {
	fd, err := unix.Open(ws, unix.O_PATH|unix.O_DIRECTORY, 0)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < depth; i++ {
		if err := unix.Mkdirat(fd, "d", 0o755); err != nil && err != unix.EEXIST {
			b.Fatal(err)
		}
		next, err := unix.Openat(fd, "d", unix.O_PATH|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		if err != nil {
			b.Fatal(err)
		}
		fd = next
	}
	unix.Close(fd)
}
