package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

var (
	shellOnce sync.Once
	shellHost *Host
)

// shellGuest returns a process-wide Host running the embedded guest,
// compiled: after a regeneration the first compile misses the cache and
// takes minutes on a loaded machine, which is no command's time to pay
// (the first test's commands timed out at their minute).
func shellGuest(t testing.TB) *Host {
	shellOnce.Do(func() {
		shellHost = NewHost(Config{})
		shellHost.Warm()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	if err := shellHost.Ready(ctx); err != nil {
		t.Fatalf("compiling the guest: %v", err)
	}
	return shellHost
}

func shellRun(t *testing.T, h *Host, ws, cmd string) Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	o, err := h.Run(ctx, ws, WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: cmd})
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return o
}

func TestAPathOutsideEveryMountIsReportedAsOutsideTheSandbox(t *testing.T) {
	h := shellGuest(t)
	ws, _ := sandboxDir(t)
	for _, cmd := range []string{"cat /etc/passwd", "ls /etc", "cat < /etc/passwd"} {
		t.Run(cmd, func(t *testing.T) {
			o := shellRun(t, h, ws, cmd)
			if o.ExitCode == 0 || !strings.Contains(string(o.Stderr), "outside the sandbox (only the workspace and /tmp are visible)") {
				t.Fatalf("exit %d stderr %q", o.ExitCode, o.Stderr)
			}
		})
	}
}

func TestTheShellGuestRunsPipelinesInTheWorkspace(t *testing.T) {
	h := shellGuest(t)
	ws, _ := sandboxDir(t)
	must(t, os.WriteFile(filepath.Join(ws, "f.txt"), []byte("foo\nbar\n"), 0o644))
	for _, tc := range []struct{ cmd, want string }{
		{"echo hi", "hi\n"},
		{"pwd", ws + "\n"},
		{"cd /tmp && echo a b | tr a-z A-Z && echo $(seq 3)", "A B\n1 2 3\n"},
		{"grep -n foo f.txt", "1:foo\n"},
		{"grep -rn foo .", "./f.txt:1:foo\n"},
		{"echo gone > /dev/null; ls missing 2>/dev/null; cat /dev/null; echo kept", "kept\n"},
		{"echo x | tee /dev/null; echo y > /dev/null; tee -a /dev/null < f.txt >/dev/null", "x\n"},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			o := shellRun(t, h, ws, tc.cmd)
			if string(o.Stdout) != tc.want || o.ExitCode != 0 {
				t.Fatalf("got %q (stderr %q, exit %d), want %q", o.Stdout, o.Stderr, o.ExitCode, tc.want)
			}
		})
	}
}

func TestShellRandomDiffersBetweenRuns(t *testing.T) {
	h := shellGuest(t)
	ws, _ := sandboxDir(t)
	a := shellRun(t, h, ws, "echo $RANDOM$RANDOM")
	b := shellRun(t, h, ws, "echo $RANDOM$RANDOM")
	if strings.TrimSpace(string(a.Stdout)) == "" || string(a.Stdout) == string(b.Stdout) {
		t.Fatalf("got %q and %q", a.Stdout, b.Stdout)
	}
}

func TestShellSleepStopsAtTheDeadline(t *testing.T) {
	h := shellGuest(t)
	ws, _ := sandboxDir(t)
	fillPool(h, ws) // the deadline is the command's, not a loaded machine's instance start
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	o, err := h.Run(ctx, ws, WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: "sleep 3600"})
	if err != nil || !o.TimedOut {
		t.Fatalf("got %+v, %v", o, err)
	}
}

func TestThePersistentShellKeepsState(t *testing.T) {
	h := shellGuest(t)
	ws, _ := sandboxDir(t)
	must(t, os.Mkdir(filepath.Join(ws, "sub"), 0o755))
	sh, err := h.NewShell(ws, WorkspaceWrite)
	must(t, err)
	defer sh.Close()
	ctx := context.Background()
	for _, c := range []string{"cd sub", "X=42"} {
		if _, err := sh.Run(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	o, err := sh.Run(ctx, "echo $X $(pwd)")
	must(t, err)
	if got, want := string(o.Stdout), "42 "+filepath.Join(ws, "sub")+"\n"; got != want {
		t.Fatalf("got %q (stderr %q), want %q", got, o.Stderr, want)
	}
}
