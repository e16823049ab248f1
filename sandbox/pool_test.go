package sandbox

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/internal/testguest"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// probeHostWith returns a fresh probe-guest Host with cfg (Guest set),
// closed at the end of the test.
func probeHostWith(t *testing.T, cfg Config) *Host {
	t.Helper()
	wasm := testguest.Probe(t)
	cfg.Guest = func() []byte { return wasm }
	h := NewHost(cfg)
	t.Cleanup(func() { _ = h.Close(context.Background()) })
	return h
}

func TestBackToBackCallsAllSucceedWhileThePoolRefills(t *testing.T) {
	h := probeHostWith(t, Config{PoolSize: 2})
	ws, _ := sandboxDir(t)
	for i := range 8 {
		lines := probeRun(t, h, ws, WorkspaceWrite, "write a.txt x\nread a.txt")
		if len(lines) != 2 || lines[1] != "DATA x" {
			t.Fatalf("call %d: got %q", i, lines)
		}
	}
}

func TestACommandWaitsForAFreeSlotAndTimesOutThere(t *testing.T) {
	h := probeHostWith(t, Config{MaxRunning: 1})
	ws, _ := sandboxDir(t)
	started := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		go func() {
			// The slot is taken once the long command is running.
			for len(h.running) == 0 {
				time.Sleep(time.Millisecond)
			}
			close(started)
		}()
		_, _ = h.Run(ctx, ws, WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: "sleep 300ms"})
	}()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	o, err := h.Run(ctx, ws, WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: "write b.txt y"})
	if err != nil {
		t.Fatal(err)
	}
	if !o.TimedOut || !strings.Contains(o.Note, "slots were busy") {
		t.Fatalf("want a timed-out outcome that names the busy slots, got %+v", o)
	}
	wg.Wait()
	if got := probeRun(t, h, ws, WorkspaceWrite, "write b.txt y"); got[0] != "OK" {
		t.Fatalf("the slot was not given back: %q", got)
	}
}

func TestCloseWaitsForARunningCommand(t *testing.T) {
	h := probeHostWith(t, Config{})
	ws, _ := sandboxDir(t)
	if err := h.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	res := make(chan Outcome, 1)
	go func() {
		o, _ := h.Run(context.Background(), ws, WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: "sleep 100ms\nwrite c.txt z"})
		res <- o
	}()
	for len(h.running) == 0 {
		time.Sleep(time.Millisecond)
	}
	if err := h.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	o := <-res
	if got := strings.TrimSpace(string(o.Stdout)); got != "OK\nOK" {
		t.Fatalf("the running command was disturbed by Close: %q %+v", got, o)
	}
	if _, err := h.Run(context.Background(), ws, WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: "write d.txt z"}); err == nil {
		t.Fatal("Run after Close succeeded")
	}
}
