package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/internal/testguest"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// reuseHost is a Host running the tree's shell guest with a pool of one,
// so every command of a key runs in the same instance while it stays fit.
func reuseHost(t *testing.T) *Host {
	t.Helper()
	wasm := testguest.Shell(t)
	h := NewHost(Config{Guest: func() []byte { return wasm }, PoolSize: 1})
	t.Cleanup(func() { h.Close(context.Background()) })
	if err := h.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	return h
}

func runScoped(t *testing.T, h *Host, scope Scope, command string, d time.Duration) Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	o, err := h.RunIn(ctx, scope, proto.Request{Op: proto.OpShell, Command: command})
	if err != nil {
		t.Fatalf("%q: %v", command, err)
	}
	return o
}

func (h *Host) made(t *testing.T, scope Scope) int64 {
	key, err := newKey(scope)
	if err != nil {
		t.Fatal(err)
	}
	return h.pool(key).made.Load()
}

// leakProbe prints everything a command could leave behind for the next
// one in the same process: variables, the directory, functions, aliases,
// shell options, traps, the umask, files in /tmp and descriptors.
const leakProbe = `echo "env=${LEAK_ENV-unset} exported=$(printenv LEAK_EXPORT || echo unset)"
pwd
type leakfn 2>&1 | head -1
alias leakalias 2>&1
set -o | grep -E '^(noglob|errexit|nounset|xtrace)'
shopt nullglob extglob
trap -p
umask
ls -a /tmp
{ read -r line <&3; } 2>/dev/null && echo "fd3=$line" || echo "fd3 closed"
echo "i=${i-unset}"`

// leakMaker changes each of those things.
const leakMaker = `LEAK_ENV=1; export LEAK_EXPORT=2; mkdir -p sub; cd sub
leakfn() { echo fn; }
alias leakalias='echo alias'
set -o noglob; set -u; set -x
shopt -s nullglob extglob
trap 'echo trapped' EXIT
umask 077
echo secret > /tmp/leak.txt; mkdir /tmp/dir
for i in 1 2 3; do :; done
true`

func TestReusedInstanceKeepsNoStateOfTheCommandBefore(t *testing.T) {
	h := reuseHost(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, leakFile), []byte("fd content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	scope := Scope{Workspace: ws, Mode: WorkspaceWrite, Session: "s1"}
	fresh := runScoped(t, h, scope, leakProbe, time.Minute)
	if fresh.ExitCode != 0 {
		t.Fatalf("probe failed on a fresh instance: %d %s", fresh.ExitCode, fresh.Stderr)
	}
	made := runScoped(t, h, scope, leakMaker, time.Minute)
	if made.ExitCode != 0 {
		t.Fatalf("leak maker failed: %d %s", made.ExitCode, made.Stderr)
	}
	again := runScoped(t, h, scope, leakProbe, time.Minute)
	if string(again.Stdout) != string(fresh.Stdout) || string(again.Stderr) != string(fresh.Stderr) {
		t.Errorf("a command after the leak maker saw its state:\n--- fresh instance\n%s%s\n--- after it\n%s%s", fresh.Stdout, fresh.Stderr, again.Stdout, again.Stderr)
	}
	if n := h.made(t, scope); n != 1 {
		t.Errorf("%d instances were made for three commands in a row; want 1 (the instance should be reused)", n)
	}
	if _, err := os.Stat(filepath.Join(ws, "sub")); err != nil {
		t.Errorf("the workspace change itself must stay: %v", err)
	}
	// A descriptor left open makes the instance unfit: the next command
	// runs in a new one and finds no fd 3.
	if o := runScoped(t, h, scope, `exec 3< sub/../`+leakFile, time.Minute); o.ExitCode != 0 {
		t.Fatalf("exec 3<: %d %s", o.ExitCode, o.Stderr)
	}
	if again := runScoped(t, h, scope, leakProbe, time.Minute); string(again.Stdout) != string(fresh.Stdout) {
		t.Errorf("a command after one that left fd 3 open saw it:\n%s", again.Stdout)
	}
	if n := h.made(t, scope); n != 2 {
		t.Errorf("%d instances made; want 2 (the one holding fd 3 open discarded)", n)
	}
}

// leakFile is a workspace file the descriptor test opens.
const leakFile = "leak-fd.txt"

func TestBackgroundJobStopsAnInstanceFromBeingReused(t *testing.T) {
	h := reuseHost(t)
	scope := Scope{Workspace: t.TempDir(), Mode: WorkspaceWrite}
	o := runScoped(t, h, scope, `(sleep 0.2; echo LEAKED > /tmp/bg.txt; echo LEAKED) & echo started`, time.Minute)
	if o.ExitCode != 0 || strings.TrimSpace(string(o.Stdout)) != "started" {
		t.Fatalf("background job: %d %q %s", o.ExitCode, o.Stdout, o.Stderr)
	}
	o = runScoped(t, h, scope, `sleep 0.5; cat /tmp/bg.txt 2>/dev/null; echo end`, time.Minute)
	if got := strings.TrimSpace(string(o.Stdout)); got != "end" {
		t.Errorf("the next command saw the background job of the one before: %q", got)
	}
	if n := h.made(t, scope); n < 2 {
		t.Errorf("%d instance(s) made: the one with a background job still running was reused", n)
	}
}

func TestSessionsAndModesNeverShareAnInstance(t *testing.T) {
	h := reuseHost(t)
	ws := t.TempDir()
	a := Scope{Workspace: ws, Mode: WorkspaceWrite, Session: "a"}
	b := Scope{Workspace: ws, Mode: WorkspaceWrite, Session: "b"}
	ro := Scope{Workspace: ws, Mode: ReadOnly, Session: "a"}
	if o := runScoped(t, h, a, `echo mine > /tmp/a.txt; cat /tmp/a.txt`, time.Minute); strings.TrimSpace(string(o.Stdout)) != "mine" {
		t.Fatalf("session a: %q %s", o.Stdout, o.Stderr)
	}
	for name, s := range map[string]Scope{"another session": b, "another mode": ro, "the same session later": a} {
		o := runScoped(t, h, s, `cat /tmp/a.txt 2>/dev/null || echo absent`, time.Minute)
		if got := strings.TrimSpace(string(o.Stdout)); got != "absent" {
			t.Errorf("%s sees session a's /tmp: %q", name, got)
		}
	}
	if n := h.made(t, a); n != 1 {
		t.Errorf("session a made %d instances; want 1 reused", n)
	}
	if h.made(t, b) != 1 || h.made(t, ro) != 1 {
		t.Errorf("session b and read-only mode should each have their own instance: %d %d", h.made(t, b), h.made(t, ro))
	}
}

func TestStoppedCommandDiscardsItsInstance(t *testing.T) {
	h := reuseHost(t)
	scope := Scope{Workspace: t.TempDir(), Mode: WorkspaceWrite}
	if o := runScoped(t, h, scope, `sleep 5`, 200*time.Millisecond); !o.TimedOut {
		t.Fatalf("sleep 5 with a 200ms budget did not time out: %+v", o)
	}
	if o := runScoped(t, h, scope, `echo after`, time.Minute); strings.TrimSpace(string(o.Stdout)) != "after" {
		t.Fatalf("command after a timeout: %d %q %s", o.ExitCode, o.Stdout, o.Stderr)
	}
	if n := h.made(t, scope); n < 2 {
		t.Errorf("the timed-out instance was reused (%d made)", n)
	}
}

func TestDisabledPoolMakesAnInstancePerCommand(t *testing.T) {
	wasm := testguest.Shell(t)
	h := NewHost(Config{Guest: func() []byte { return wasm }, PoolSize: -1})
	defer h.Close(context.Background())
	scope := Scope{Workspace: t.TempDir(), Mode: WorkspaceWrite}
	for range 3 {
		runScoped(t, h, scope, `true`, time.Minute)
	}
	if n := h.made(t, scope); n != 3 {
		t.Errorf("%d instances for 3 commands with the pool disabled; want 3", n)
	}
}

func TestConcurrentCommandsNeverShareAnInstance(t *testing.T) {
	h := reuseHost(t)
	scope := Scope{Workspace: t.TempDir(), Mode: WorkspaceWrite}
	const n = 12
	got := make(chan string, n)
	for i := range n {
		go func() {
			o := runScoped(t, h, scope, fmt.Sprintf(`echo %d > /tmp/me; sleep 0.05; echo "$(ls /tmp) $(cat /tmp/me)"`, i), time.Minute)
			got <- fmt.Sprintf("%d:%s", i, strings.TrimSpace(string(o.Stdout)))
		}()
	}
	for range n {
		line := <-got
		i, rest, _ := strings.Cut(line, ":")
		if rest != "me "+i {
			t.Errorf("command %s saw another command's /tmp: %q", i, rest)
		}
	}
	t.Logf("%d instances made for %d concurrent commands", h.made(t, scope), n)
}

func TestLongCommandsGetInstancesOfTheirOwn(t *testing.T) {
	h := reuseHost(t)
	scope := Scope{Workspace: t.TempDir(), Mode: WorkspaceWrite}
	runScoped(t, h, scope, `true`, time.Minute) // one instance, timed
	done := make(chan struct{})
	for range 3 {
		go func() {
			defer func() { done <- struct{}{} }()
			runScoped(t, h, scope, `sleep 3`, time.Minute)
		}()
	}
	for range 3 {
		<-done
	}
	if n := h.made(t, scope); n < 2 {
		t.Errorf("three 3-second commands at once ran on %d instance(s); the waiting ones should have made their own", n)
	}
}
