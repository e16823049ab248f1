package sandbox

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/internal/testguest"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

var (
	smallOnce sync.Once
	smallHost *Host
)

// smallGuest is a Host running the tree's shell guest with 32 MiB of
// memory, so loops that outgrow an unfinished collection, and commands
// that run out of memory, show it in seconds.
func smallGuest(t *testing.T) *Host {
	wasm := testguest.Shell(t)
	smallOnce.Do(func() {
		smallHost = NewHost(Config{Guest: func() []byte { return wasm }, MemoryLimitPages: 512})
	})
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	if err := smallHost.Ready(ctx); err != nil { // the compile is no command's time
		t.Fatalf("compiling the guest: %v", err)
	}
	return smallHost
}

// runtimeText is what of the Go runtime must never reach the model.
var runtimeText = regexp.MustCompile(`goroutine |runtime\.|0x[0-9a-f]+`)

// TestLoopsOfBuiltinsFinishTheirCollections runs the loops that died at
// the memory cap while a concurrent collection never finished (the mark
// worker never ran: a loop of builtins never blocks), each moving about
// four times the memory limit through the heap.
//
// The commands get ten minutes each: the limit only stops a hang, as the
// loops are slow on a loaded machine.
func TestLoopsOfBuiltinsFinishTheirCollections(t *testing.T) {
	h := smallGuest(t)
	ws, _ := sandboxDir(t)
	setup := "head -c 600000 /dev/zero | tr '\\0' a > big; x=$(cat big); "
	tests := []struct{ name, loop string }{
		{"echo of a large variable", `for i in $(seq 200); do echo "$x" > /dev/null; done`},
		{"printf of it", `for i in $(seq 200); do printf '%s\n' "$x" > /dev/null; done`},
		{"cat of a large file", `for i in $(seq 200); do cat big > /dev/null; done`},
		{"$(<file)", `for i in $(seq 200); do y=$(<big); done`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := longRun(t, h, ws, setup+tt.loop+"; echo done")
			if o.ExitCode != 0 || string(o.Stdout) != "done\n" {
				t.Errorf("exit %d, stdout %q, note %q, stderr %.300q", o.ExitCode, o.Stdout, o.Note, o.Stderr)
			}
		})
	}
}

func TestLimitsEndACommandWithOneSentence(t *testing.T) {
	h := smallGuest(t)
	ws, _ := sandboxDir(t)
	t.Run("out of memory keeps the output before it and drops the runtime's text", func(t *testing.T) {
		o := shellRun(t, h, ws, "echo before; echo err >&2; x=aaaaaaaaaaaaaaaa; while true; do x=\"$x$x\"; done")
		if o.ExitCode != ExitOutOfMemory || string(o.Stdout) != "before\n" || string(o.Stderr) != "err\n" {
			t.Errorf("exit %d, stdout %q, stderr %.300q", o.ExitCode, o.Stdout, o.Stderr)
		}
		if !strings.Contains(o.Note, "out of memory (limit 32 MiB)") || strings.Contains(o.Note, "\n") || runtimeText.MatchString(o.Note) {
			t.Errorf("note %q", o.Note)
		}
	})
	t.Run("a command line past the cap is refused before it runs", func(t *testing.T) {
		o := shellRun(t, h, ws, "echo "+strings.Repeat("a", MaxCommandBytes))
		if o.ExitCode != ExitTooLong || len(o.Stdout) != 0 || !strings.Contains(o.Note, "limit of 4194304") {
			t.Errorf("exit %d, stdout %.100q, note %q", o.ExitCode, o.Stdout, o.Note)
		}
	})
	t.Run("an argument past Linux's MAX_ARG_STRLEN ends the command, as execve would", func(t *testing.T) {
		o := shellRun(t, h, ws, "x=$(head -c 200000 /dev/zero | tr '\\0' a); grep \"$x\" /dev/null; echo $?; echo \"$x\" | wc -c")
		want := "grep: argument list too long: one argument is 200000 bytes, the limit is 131072 (Linux's MAX_ARG_STRLEN)\n"
		if string(o.Stdout) != "126\n200001\n" || string(o.Stderr) != want {
			t.Errorf("stdout %q, stderr %q", o.Stdout, o.Stderr)
		}
	})
	t.Run("arguments past ARG_MAX too", func(t *testing.T) {
		o := shellRun(t, h, ws, "x=$(head -c 120000 /dev/zero | tr '\\0' a); for i in $(seq 20); do set -- \"$@\" \"$x\"; done; ls \"$@\"; echo $? $#")
		want := "ls: argument list too long: 2400023 bytes of arguments, the limit is 2097152 (Linux's ARG_MAX)\n"
		if string(o.Stdout) != "126 20\n" || string(o.Stderr) != want {
			t.Errorf("stdout %q, stderr %q", o.Stdout, o.Stderr)
		}
	})
}

// longRun is shellRun without its minute: for commands that are slow only
// because the machine is busy.
func longRun(t *testing.T, h *Host, ws, cmd string) Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	o, err := h.Run(ctx, ws, WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: cmd})
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return o
}
