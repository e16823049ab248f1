package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// The benchmarks in this file measure the sandbox against the host's own
// tools in the same run, so the figures are ratios that survive a loaded
// machine: a guest call against `bash -c` of the same command, tools.grep
// and tools.glob (the file ops they run) and the guest shell's grep -rn
// and find against GNU grep -rn and find on a generated tree.
//
//	go test -run '^$' -bench 'VsNative|Search' -benchtime 20x ./sandbox/
//
// PTC_BENCH_TREES=1000,10000,50000 changes the tree sizes (default 1000
// and 10000 files).

// nativeBash runs command with the host's bash -c in dir, its output read
// through a pipe as the sandbox's is.
func nativeBash(tb testing.TB, dir, command string) {
	cmd := exec.Command("/bin/bash", "-c", command)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("bash -c %q: %v %s", command, err, out)
	}
}

// guestShell runs command through h as the bash tool does.
func guestShell(tb testing.TB, h *Host, ws, command string) Outcome {
	o, err := h.Run(context.Background(), ws, WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: command})
	if err != nil || o.ExitCode != 0 {
		tb.Fatalf("guest %q: %v exit %d %s", command, err, o.ExitCode, o.Stderr)
	}
	return o
}

// fillPool waits until the pool of (ws, workspace-write) holds its full
// complement of ready instances.
func fillPool(h *Host, ws string) {
	key, _ := newKey(Scope{Workspace: ws, Mode: WorkspaceWrite})
	p := h.pool(key)
	for len(p.ready) < p.size {
		p.refill()
		time.Sleep(time.Millisecond)
	}
}

// madeFor is how many instances the pool of (ws, workspace-write) made.
func madeFor(h *Host, ws string) int64 {
	key, _ := newKey(Scope{Workspace: ws, Mode: WorkspaceWrite})
	return h.pool(key).made.Load()
}

// perCall reports a guest and a native duration per call and their ratio.
func perCall(b *testing.B, guest, native time.Duration, calls int) {
	g := float64(guest.Microseconds()) / float64(calls)
	n := float64(native.Microseconds()) / float64(calls)
	b.ReportMetric(g, "guest-µs/call")
	b.ReportMetric(n, "bash-µs/call")
	b.ReportMetric(g/n, "x-native")
}

// BenchmarkVsNative times `echo hi` through the sandbox against the
// host's bash -c in the same run, three ways:
//   - warm: one call with ready instances, as when a model thinks between
//     calls;
//   - back-to-back: 20 calls in a tight loop, as a program's loop does;
//   - parallel: 50 calls at once, as Promise.all does (the bash side
//     starts 50 processes at once).
func BenchmarkVsNative(b *testing.B) {
	h := NewHost(Config{})
	defer h.Close(context.Background())
	ws := benchTree(b)
	if err := h.Ready(context.Background()); err != nil {
		b.Fatal(err)
	}
	const cmd = "echo hi"
	b.Run("warm", func(b *testing.B) {
		var guest, native time.Duration
		for b.Loop() {
			b.StopTimer()
			fillPool(h, ws)
			b.StartTimer()
			start := time.Now()
			guestShell(b, h, ws, cmd)
			guest += time.Since(start)
			start = time.Now()
			nativeBash(b, ws, cmd)
			native += time.Since(start)
		}
		perCall(b, guest, native, b.N)
	})
	b.Run("back-to-back", func(b *testing.B) {
		const n = 20
		var guest, native time.Duration
		made := madeFor(h, ws)
		defer func() { b.ReportMetric(float64(madeFor(h, ws)-made)/float64(b.N), "instances/op") }()
		for b.Loop() {
			start := time.Now()
			for range n {
				guestShell(b, h, ws, cmd)
			}
			guest += time.Since(start)
			start = time.Now()
			for range n {
				nativeBash(b, ws, cmd)
			}
			native += time.Since(start)
		}
		perCall(b, guest, native, b.N*n)
	})
	b.Run("parallel", func(b *testing.B) {
		const n = 50
		all := func(run func()) time.Duration {
			var wg sync.WaitGroup
			start := time.Now()
			for range n {
				wg.Go(run)
			}
			wg.Wait()
			return time.Since(start)
		}
		var guest, native time.Duration
		made := madeFor(h, ws)
		for b.Loop() {
			guest += all(func() { guestShell(b, h, ws, cmd) })
			native += all(func() { nativeBash(b, ws, cmd) })
		}
		perCall(b, guest, native, b.N*n)
		b.ReportMetric(float64(madeFor(h, ws)-made)/float64(b.N), "instances/op")
	})
}

// searchTree makes a tree of n files under base, laid out like a source
// repository: directories of 20 files, 20 directories per
// parent, a mix of .go, .md, .txt and .json files of ~1.5 KB; one file in
// five has a line with TODO.
func searchTree(tb testing.TB, base string, n int) string {
	base = filepath.Join(base, strconv.Itoa(n))
	exts := []string{".go", ".go", ".md", ".txt", ".json"}
	var body strings.Builder
	for l := range 40 {
		fmt.Fprintf(&body, "\tvalue%02d := compute(%d, \"some words on the line\") // note\n", l, l)
	}
	for i := range n {
		dir := filepath.Join(base, fmt.Sprintf("pkg%03d", i/400), fmt.Sprintf("sub%02d", i/20%20))
		if i%20 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				tb.Fatal(err)
			}
		}
		text := body.String()
		if i%5 == 0 {
			text += "\t// TODO: handle the error here\n"
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%02d%s", i%20, exts[i%len(exts)])), []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return base
}

// benchTreeSizes are the tree sizes of BenchmarkSearch.
func benchTreeSizes(tb testing.TB) []int {
	v := os.Getenv("PTC_BENCH_TREES")
	if v == "" {
		return []int{1000, 10000}
	}
	var sizes []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			tb.Fatalf("PTC_BENCH_TREES: %q is not a file count", f)
		}
		sizes = append(sizes, n)
	}
	return sizes
}

// searchOp runs the search a structured tool runs.
func searchOp(tb testing.TB, h *Host, ws, op string, req proto.FileRequest) proto.FileResponse {
	resp, err := h.Search(context.Background(), Scope{Workspace: ws, Mode: WorkspaceWrite}, op, req)
	if err != nil || resp.Error != nil {
		tb.Fatalf("%s: %v %+v", op, err, resp.Error)
	}
	return resp
}

// BenchmarkSearch times, per file of the tree and in one run, the grep
// and glob searches (what tools.grep and tools.glob run, with their
// caps: Host.Search), the guest shell's grep -rn and find, and GNU grep -rn and
// find, and reports each sandbox figure as a multiple of the native one.
func BenchmarkSearch(b *testing.B) {
	h := NewHost(Config{})
	defer h.Close(context.Background())
	if err := h.Ready(context.Background()); err != nil {
		b.Fatal(err)
	}
	base, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range benchTreeSizes(b) {
		ws := searchTree(b, base, n)
		timed := func(d *time.Duration, run func()) {
			start := time.Now()
			run()
			*d += time.Since(start)
		}
		report := func(b *testing.B, tool, shell, native time.Duration) {
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 / float64(b.N) / float64(n) }
			b.ReportMetric(per(tool), "tool-µs/file")
			b.ReportMetric(per(shell), "shell-µs/file")
			b.ReportMetric(per(native), "native-µs/file")
			b.ReportMetric(per(tool)/per(native), "tool-x")
			b.ReportMetric(per(shell)/per(native), "shell-x")
		}
		b.Run(fmt.Sprintf("grep/%d", n), func(b *testing.B) {
			var tool, shell, native time.Duration
			for b.Loop() {
				timed(&tool, func() {
					if r := searchOp(b, h, ws, proto.OpGrep, proto.FileRequest{Path: ws, Pattern: "TODO", MaxResults: 500}); r.Total != n/5 {
						b.Fatalf("tool grep found %d, want %d", r.Total, n/5)
					}
				})
				timed(&shell, func() { guestShell(b, h, ws, "grep -rn TODO . >/dev/null") })
				timed(&native, func() { nativeBash(b, ws, "grep -rn TODO . >/dev/null") })
			}
			report(b, tool, shell, native)
		})
		b.Run(fmt.Sprintf("glob/%d", n), func(b *testing.B) {
			var tool, shell, native time.Duration
			for b.Loop() {
				timed(&tool, func() {
					if r := searchOp(b, h, ws, proto.OpGlob, proto.FileRequest{Path: ws, Pattern: "**/*.go", MaxResults: 200}); r.Total != n*2/5 {
						b.Fatalf("tool glob found %d, want %d", r.Total, n*2/5)
					}
				})
				timed(&shell, func() { guestShell(b, h, ws, "find . -name '*.go' >/dev/null") })
				timed(&native, func() { nativeBash(b, ws, "find . -name '*.go' >/dev/null") })
			}
			report(b, tool, shell, native)
		})
	}
}

// startupChild is the environment variable that makes TestStartupChild
// act as a whole `ptc sh 'echo hi'`-like process for BenchmarkStartup.
const startupChild = "PTC_BENCH_STARTUP_CHILD"

// TestStartupChild is BenchmarkStartup's child process: a new Host with
// the compile cache, a fresh instance (no pool, as `ptc sh`), one
// command. Without the variable it does nothing.
func TestStartupChild(t *testing.T) {
	ws := os.Getenv(startupChild)
	if ws == "" {
		t.Skip("run by BenchmarkStartup")
	}
	h := NewHost(Config{PoolSize: -1})
	h.Warm()
	defer h.Close(context.Background())
	if o := guestShell(t, h, ws, "echo hi"); string(o.Stdout) != "hi\n" {
		t.Fatalf("%q", o.Stdout)
	}
}

// BenchmarkStartup times what a one-command process pays before and for
// its command, with the compile cache warm: compiling the guest (wazero
// decodes and validates the whole module, then loads the cached native
// code), making an instance (instantiation, the guest's _initialize, the
// warm-up call), and the command; and a whole process doing all that
// (this test binary as TestStartupChild) against bash -c in the same run.
func BenchmarkStartup(b *testing.B) {
	ws := benchTree(b)
	warm := NewHost(Config{})
	if err := warm.Ready(context.Background()); err != nil { // fills the cache
		b.Fatal(err)
	}
	warm.Close(context.Background())
	b.Run("phases", func(b *testing.B) {
		var compile, instance, call time.Duration
		for b.Loop() {
			h := NewHost(Config{PoolSize: -1})
			start := time.Now()
			if err := h.Ready(context.Background()); err != nil {
				b.Fatal(err)
			}
			compile += time.Since(start)
			key, _ := newKey(Scope{Workspace: ws, Mode: WorkspaceWrite})
			start = time.Now()
			in, err := h.newInstance(context.Background(), key)
			if err != nil {
				b.Fatal(err)
			}
			instance += time.Since(start)
			start = time.Now()
			if _, err := h.call(context.Background(), in, key, callOptions{}, proto.Request{Op: proto.OpShell, Command: "echo hi"}); err != nil {
				b.Fatal(err)
			}
			call += time.Since(start)
			in.release()
			h.Close(context.Background())
		}
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
		b.ReportMetric(ms(compile), "compile-ms")
		b.ReportMetric(ms(instance), "instance-ms")
		b.ReportMetric(ms(call), "call-ms")
	})
	b.Run("process", func(b *testing.B) {
		var child, native time.Duration
		for b.Loop() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestStartupChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), startupChild+"="+ws)
			start := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v %s", err, out)
			}
			child += time.Since(start)
			start = time.Now()
			nativeBash(b, ws, "echo hi")
			native += time.Since(start)
		}
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
		b.ReportMetric(ms(child), "process-ms")
		b.ReportMetric(ms(native), "bash-ms")
		b.ReportMetric(ms(child)/ms(native), "x-native")
	})
}
