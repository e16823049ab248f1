package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The escape and denial-of-service suite. Every attack targets only the
// canary directory the test creates ("outside", beside the workspace).

var allModes = []Mode{ReadOnly, WorkspaceWrite, DangerFullAccess}

func expectAll(t *testing.T, got []string, prefix string) {
	t.Helper()
	for i, line := range got {
		if !strings.HasPrefix(line, prefix) {
			t.Errorf("op %d: got %q, want %s...", i, line, prefix)
		}
	}
}

func TestRawWASIPathsCannotLeaveTheMount(t *testing.T) {
	h := probe(t)
	ws, outside := sandboxDir(t)
	rel, _ := filepath.Rel(ws, outside)
	got := probeRun(t, h, ws, WorkspaceWrite, strings.Join([]string{
		"rawopen 3 ../outside/secret.txt",
		"rawopen 3 " + outside + "/secret.txt",
		"rawopen 3 a/../../outside/secret.txt",
		"rawopen 3 " + rel + "/secret.txt",
		"rawopen 3 /../../../../" + outside + "/secret.txt",
		"read ../outside/secret.txt",
		"read " + outside + "/secret.txt",
	}, "\n"))
	t.Logf("%q", got)
	expectAll(t, got, "ERR")
	if got := probeRun(t, h, ws, WorkspaceWrite, "write in.txt x\nrawopen 3 in.txt"); got[1] != "OK" {
		t.Fatalf("fd 3 is not the workspace preopen: %q", got)
	}
}

func TestSymlinksInTheWorkspaceStayConfinedInEveryMode(t *testing.T) {
	h := probe(t)
	for _, mode := range allModes {
		t.Run(string(mode), func(t *testing.T) {
			ws, outside := sandboxDir(t)
			must(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("INSIDE"), 0o644))
			must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "abs")))
			must(t, os.Symlink("../outside/secret.txt", filepath.Join(ws, "rel")))
			must(t, os.Symlink(outside, filepath.Join(ws, "absdir")))
			must(t, os.Symlink("../outside", filepath.Join(ws, "reldir")))
			must(t, os.Symlink("a.txt", filepath.Join(ws, "inside")))
			must(t, os.Symlink("../outside/new.txt", filepath.Join(ws, "dangling")))
			must(t, os.Symlink(filepath.Join(outside, "new.txt"), filepath.Join(ws, "dangabs")))

			got := probeRun(t, h, ws, mode, strings.Join([]string{
				"read abs", "read rel", "readdir absdir", "readdir reldir", "read reldir/secret.txt", "read absdir/secret.txt",
				"write abs X", "write rel X", "truncate abs", "truncate rel", "append rel X",
				"write dangling X", "write dangabs X", "write reldir/new.txt X", "mkdir reldir/d",
				"chtimes rel", "link reldir/secret.txt hard", "link abs hard2", "rename reldir/secret.txt stolen",
				"symlink ../outside/secret.txt made-rel", "symlink " + outside + "/secret.txt made-abs",
				"symlink ../../../../../../../.. made-up", "read made-rel", "read made-abs",
			}, "\n"))
			expectAll(t, got, "ERR")
			if got := probeRun(t, h, ws, mode, "read inside"); got[0] != "DATA INSIDE" {
				t.Errorf("symlink inside the root: got %q", got)
			}
			canaryIntact(t, outside)
		})
	}
}

func TestGuestMadeSymlinksInsideTheRootWork(t *testing.T) {
	h := probe(t)
	ws, _ := sandboxDir(t)
	got := probeRun(t, h, ws, WorkspaceWrite, "mkdir d\nwrite d/f.txt INSIDE\nsymlink d/f.txt l\nsymlink d dl\nread l\nread dl/f.txt\nlink d/f.txt hard\nread hard")
	want := []string{"OK", "OK", "OK", "OK", "DATA INSIDE", "DATA INSIDE", "OK", "DATA INSIDE"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestASymlinkSwapRaceNeverEscapes(t *testing.T) {
	h := probe(t)
	ws, outside := sandboxDir(t)
	flip, real := filepath.Join(ws, "flip"), filepath.Join(ws, "real")
	must(t, os.Mkdir(real, 0o755))
	must(t, os.WriteFile(filepath.Join(real, "secret.txt"), []byte("INSIDE"), 0o644))
	must(t, os.Rename(real, flip))
	var stop atomic.Bool
	var flips atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() || flips.Load() < 20000 {
			_ = os.Rename(flip, real)
			_ = os.Symlink(outside, flip)
			_ = os.Remove(flip)
			_ = os.Rename(real, flip)
			flips.Add(1)
			if flips.Load() >= 20000 && stop.Load() {
				return
			}
		}
	}()
	got := probeRun(t, h, ws, ReadOnly, "readloop flip/secret.txt 20000")
	stop.Store(true)
	<-done
	t.Logf("%s after %d flips", got[0], flips.Load())
	if !strings.HasPrefix(got[0], "COUNTS") || !strings.Contains(got[0], " canary=0 ") {
		t.Fatalf("escape during the swap race: %q", got[0])
	}
}

// flipper swaps the path at from between three states until stopped:
// missing, a symlink to target, and a real directory.
func flipper(t *testing.T, from, target string, n int64) (stop func() int64) {
	t.Helper()
	var halt atomic.Bool
	var flips atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !halt.Load() || flips.Load() < n {
			_ = os.Symlink(target, from)
			_ = os.Remove(from)
			_ = os.Mkdir(from, 0o755)
			_ = os.RemoveAll(from)
			flips.Add(1)
		}
	}()
	return func() int64 {
		halt.Store(true)
		<-done
		return flips.Load()
	}
}

func TestASymlinkSwapRaceNeverReachesAProtectedPath(t *testing.T) {
	h := probe(t)
	for _, target := range []string{".git", ".git/hooks", "sub/.git"} {
		t.Run("a path flipping to "+target, func(t *testing.T) {
			ws, _ := sandboxDir(t)
			must(t, os.MkdirAll(filepath.Join(ws, ".git", "hooks"), 0o755))
			must(t, os.MkdirAll(filepath.Join(ws, "sub", ".git"), 0o755))
			for _, f := range []string{".git/config", ".git/hooks/config", "sub/.git/config"} {
				must(t, os.WriteFile(filepath.Join(ws, f), []byte("ORIGINAL"), 0o644))
			}
			// Through the guest end to end; rootfs's own race test makes
			// 20 000 attempts per target at the FS directly.
			stop := flipper(t, filepath.Join(ws, "x"), target, 2000)
			got := probeRun(t, h, ws, WorkspaceWrite, "writeloop x/config 2000")
			flips := stop()
			t.Logf("%s after %d flips", got[0], flips)
			for _, f := range []string{".git/config", ".git/hooks/config", "sub/.git/config"} {
				if b, _ := os.ReadFile(filepath.Join(ws, f)); string(b) != "ORIGINAL" {
					t.Fatalf("%s was written during the race: %q", f, b)
				}
			}
			if entries, _ := os.ReadDir(filepath.Join(ws, ".git", "hooks")); len(entries) != 1 {
				t.Fatalf(".git/hooks gained files: %v", entries)
			}
		})
	}
}

func TestFIFOsAndDevicesFailFast(t *testing.T) {
	h := probe(t)
	ws, _ := sandboxDir(t)
	must(t, syscall.Mkfifo(filepath.Join(ws, "fifo"), 0o644))
	script := "read fifo\nwrite fifo X\nopen fifo"
	if err := syscall.Mknod(filepath.Join(ws, "null"), syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		script += "\nread null\nwrite null X"
	} else {
		t.Logf("no device file test (mknod: %v)", err)
	}
	o := probeOutcome(t, h, ws, WorkspaceWrite, script, time.Minute)
	if o.TimedOut {
		t.Fatal("opening a FIFO hung until the deadline")
	}
	expectAll(t, strings.Split(strings.TrimSpace(string(o.Stdout)), "\n"), "ERR")
}

func TestProtectedPathsStayReadOnlyInWorkspaceWrite(t *testing.T) {
	h := probe(t)
	ws, _ := sandboxDir(t)
	must(t, os.MkdirAll(filepath.Join(ws, ".git", "hooks"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, ".git", "config"), []byte("CONFIG"), 0o644))
	must(t, os.Symlink(".git/hooks", filepath.Join(ws, "hooks")))
	must(t, os.Mkdir(filepath.Join(ws, "sub"), 0o755))
	got := probeRun(t, h, ws, WorkspaceWrite, strings.Join([]string{
		"write .git/config X", "append .git/config X", "truncate .git/config", "rm .git/config",
		"write .git/hooks/pre-commit X", "write hooks/pre-commit X", "rename .git g", "rename .git/hooks h",
		"rename .git/config c", "link .git/config c2", "symlink .git/hooks h2", "mkdir .git/hooks/d",
		"chtimes .git/config", "write .git/index X", "mkdir sub/.git", "write sub/.git X", "symlink x sub/.git",
		"write .ptc/x X", "write .mcp.json X", "mkdir .git/modules/m",
	}, "\n"))
	expectAll(t, got, "ERR")
	if got := probeRun(t, h, ws, WorkspaceWrite, "read .git/config\nwrite sub/ok X"); fmt.Sprint(got) != "[DATA CONFIG OK]" {
		t.Fatalf("protected paths must stay readable: %q", got)
	}
	t.Run("git-write opens the top-level .git to git's own data only", func(t *testing.T) {
		got := probeRun(t, h, ws, GitWrite, strings.Join([]string{
			"write .git/index X", "mkdir .git/objects", "write .git/objects/ab X",
			"write .git/config X", "write .git/hooks/pre-commit X", "rename .git g", "mkdir sub/.git", "write .git/commondir X",
		}, "\n"))
		if want := "[OK OK OK ERR ERR ERR ERR ERR]"; fmt.Sprint(prefixes(got)) != want {
			t.Fatalf("got %q, want %s", got, want)
		}
	})
}

// prefixes keeps the first word of each probe answer.
func prefixes(got []string) []string {
	out := make([]string, len(got))
	for i, g := range got {
		out[i], _, _ = strings.Cut(g, " ")
	}
	return out
}

func TestReadOnlyRefusesEveryMutation(t *testing.T) {
	h := probe(t)
	ws, _ := sandboxDir(t)
	must(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("INSIDE"), 0o644))
	must(t, os.Mkdir(filepath.Join(ws, "d"), 0o755))
	got := probeRun(t, h, ws, ReadOnly, strings.Join([]string{
		"write a.txt X", "write new.txt X", "append a.txt X", "truncate a.txt", "mkdir e", "rm a.txt", "rm d",
		"rename a.txt b.txt", "symlink a.txt l", "link a.txt h", "chtimes a.txt",
	}, "\n"))
	expectAll(t, got, "ERR")
	if got := probeRun(t, h, ws, ReadOnly, "read a.txt\nwrite /tmp/x ok"); fmt.Sprint(got) != "[DATA INSIDE OK]" {
		t.Fatalf("reads and the private /tmp in read-only mode: %q", got)
	}
}

func TestBlockingAndSpinningGuestsStopAtTheDeadline(t *testing.T) {
	h := probe(t)
	ws, _ := sandboxDir(t)
	if err := h.Ready(context.Background()); err != nil || !h.interruptible {
		t.Fatalf("the guest was not instrumented for interruption (%v): the run would fall back to wazero's slow checks", err)
	}
	for _, script := range []string{"loop", "sleep 1h"} {
		t.Run(script, func(t *testing.T) {
			o := probeOutcome(t, h, ws, WorkspaceWrite, script, 300*time.Millisecond)
			if !o.TimedOut || o.ExitCode != ExitTimedOut {
				t.Fatalf("got %+v, want a timeout", o)
			}
		})
	}
	t.Run("a read of stdin returns", func(t *testing.T) {
		o := probeOutcome(t, h, ws, WorkspaceWrite, "stdin", time.Minute)
		if strings.TrimSpace(string(o.Stdout)) != "STDIN 0 <nil>" {
			t.Fatalf("got %q", o.Stdout)
		}
	})
}

func TestAMemoryBombEndsTheGuestNotTheHost(t *testing.T) {
	h := probe(t)
	ws, _ := sandboxDir(t)
	o := probeOutcome(t, h, ws, WorkspaceWrite, "membomb", time.Minute)
	if o.ExitCode != ExitOutOfMemory || !strings.Contains(o.Note, "memory") {
		t.Fatalf("got exit %d note %q stderr %.200s", o.ExitCode, o.Note, o.Stderr)
	}
	if got := probeRun(t, h, ws, WorkspaceWrite, "write a OK\nread a"); got[1] != "DATA OK" {
		t.Fatalf("host unusable after the bomb: %q", got)
	}
}

func TestAnOutputFloodIsCapped(t *testing.T) {
	h := probe(t)
	ws, _ := sandboxDir(t)
	o := probeOutcome(t, h, ws, WorkspaceWrite, "flood", time.Minute)
	if !o.Truncated || o.TimedOut || len(o.Stdout)+len(o.Stderr) != h.cfg.OutputLimit {
		t.Fatalf("got truncated=%v timedOut=%v %d bytes", o.Truncated, o.TimedOut, len(o.Stdout))
	}
}

func TestOpenFilesAreCapped(t *testing.T) {
	h := probe(t)
	ws, _ := sandboxDir(t)
	must(t, os.WriteFile(filepath.Join(ws, "a"), nil, 0o644))
	got := probeRun(t, h, ws, WorkspaceWrite, "openmany a 10000")
	var n int
	if _, err := fmt.Sscanf(got[0], "OPENED %d ERR", &n); err != nil || n >= h.cfg.MaxOpen {
		t.Fatalf("got %q, want a failure before %d files", got[0], h.cfg.MaxOpen)
	}
}

func TestTheWriteQuotaStopsADiskFill(t *testing.T) {
	h := probe(t)
	ws, _ := sandboxDir(t)
	got := probeRun(t, h, ws, WorkspaceWrite, "fill big")
	var n int64
	if _, err := fmt.Sscanf(got[0], "WROTE %d ERR", &n); err != nil || n > h.cfg.WriteQuota {
		t.Fatalf("got %q, want a failure at most %d bytes in", got[0], h.cfg.WriteQuota)
	}
	info, err := os.Stat(filepath.Join(ws, "big"))
	if err != nil || info.Size() > h.cfg.WriteQuota {
		t.Fatalf("file on disk: %v %v", info.Size(), err)
	}
}

func TestTheGuestSeesOnlyAllowlistedEnvironment(t *testing.T) {
	h := probe(t)
	ws, _ := sandboxDir(t)
	t.Setenv("PTC_TEST_SECRET", "leak")
	got := probeRun(t, h, ws, WorkspaceWrite, "env")
	vars := strings.Fields(strings.TrimPrefix(got[0], "ENV "))
	allowed := baseEnv(ws, ws)
	for k, v := range guestRuntimeEnv(h.cfg.MemoryLimitPages) {
		allowed[k] = v
	}
	for _, kv := range vars {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := allowed[k]; !ok {
			t.Errorf("unexpected variable %q", kv)
		}
	}
	if len(vars) != len(allowed) {
		t.Errorf("got %q", vars)
	}
}

func TestRandomnessDiffersBetweenRuns(t *testing.T) {
	h := probe(t)
	ws, _ := sandboxDir(t)
	a := probeRun(t, h, ws, WorkspaceWrite, "rand")
	b := probeRun(t, h, ws, WorkspaceWrite, "rand")
	if a[0] == b[0] {
		t.Fatalf("same random bytes twice: %q", a[0])
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
