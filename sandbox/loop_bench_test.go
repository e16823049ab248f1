package sandbox

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/internal/testguest"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// shellLoops are the loops BenchmarkShellLoops runs, each 2 000
// iterations, each ending by printing something the two shells must agree
// on.
var shellLoops = []struct{ name, script string }{
	{"while-test-arith", `i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done; echo $i`},
	{"for-seq", `for i in $(seq 2000); do true; done; echo $i`},
	{"arith-command", `i=0; while ((i < 2000)); do ((i++)); done; echo $i`},
	{"function-call", `f() { s=$1; }; for i in $(seq 2000); do f "x$i"; done; echo $s`},
	{"string-build", `s=; for i in $(seq 2000); do s="$s$i"; done; echo ${#s}`},
}

// BenchmarkShellLoops times shell loops in the guest against the host's
// bash -c in the same run: the cost of the interpreter itself, with no
// file or process work in the loop. The guest is the tree's (built by
// testguest), so a change to the interpreter is measured before it
// is embedded.
//
//	go test -run '^$' -bench ShellLoops -benchtime 5x ./sandbox/
func BenchmarkShellLoops(b *testing.B) {
	wasm := testguest.Shell(b)
	h := NewHost(Config{Guest: func() []byte { return wasm }, PoolSize: -1})
	defer h.Close(context.Background())
	if err := h.Ready(context.Background()); err != nil {
		b.Fatal(err)
	}
	ws := benchTree(b)
	key, _ := newKey(Scope{Workspace: ws, Mode: WorkspaceWrite})
	for _, l := range shellLoops {
		b.Run(l.name, func(b *testing.B) {
			in, err := h.newInstance(context.Background(), key)
			if err != nil {
				b.Fatal(err)
			}
			defer in.release()
			var guest, native time.Duration
			for b.Loop() {
				start := time.Now()
				o, err := h.call(context.Background(), in, key, callOptions{}, proto.Request{Op: proto.OpShell, Command: l.script})
				guest += time.Since(start)
				if err != nil || o.ExitCode != 0 {
					b.Fatalf("guest: %v exit %d %s", err, o.ExitCode, o.Stderr)
				}
				start = time.Now()
				want, err := exec.Command("/bin/bash", "-c", l.script).Output()
				native += time.Since(start)
				if err != nil {
					b.Fatalf("bash: %v", err)
				}
				if got := string(o.Stdout); got != string(want) {
					b.Fatalf("guest printed %q, bash %q", got, want)
				}
			}
			const iterations = 2000
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 / float64(b.N) / iterations }
			b.ReportMetric(per(guest), "guest-µs/iter")
			b.ReportMetric(per(native), "bash-µs/iter")
			b.ReportMetric(per(guest)/per(native), "x-native")
		})
	}
}

// The loops must print the same in the guest as in bash, or their timing
// compares different work.
func TestShellLoopsAgreeWithBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	wasm := testguest.Shell(t)
	h := NewHost(Config{Guest: func() []byte { return wasm }, PoolSize: -1})
	defer h.Close(context.Background())
	ws := benchTree(t)
	for _, l := range shellLoops {
		t.Run(strings.ReplaceAll(l.name, "-", " ")+" prints what bash prints", func(t *testing.T) {
			want, err := exec.Command(bash, "-c", l.script).Output()
			if err != nil {
				t.Fatal(err)
			}
			o, err := h.Run(context.Background(), ws, WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: l.script})
			if err != nil || o.ExitCode != 0 || string(o.Stdout) != string(want) {
				t.Fatalf("guest %q exit %d %v %s; bash %q", o.Stdout, o.ExitCode, err, o.Stderr, want)
			}
		})
	}
}
