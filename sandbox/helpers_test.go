package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/internal/testguest"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

var (
	probeOnce sync.Once
	probeHost *Host
)

// probe returns a process-wide Host running the probe guest.
func probe(t *testing.T) *Host {
	t.Helper()
	wasm := testguest.Probe(t)
	probeOnce.Do(func() {
		probeHost = NewHost(Config{Guest: func() []byte { return wasm }, MaxOpen: 64, WriteQuota: 8 << 20, OutputLimit: 256 << 10})
		probeHost.Warm()
	})
	return probeHost
}

// sandboxDir returns a workspace and an outside canary directory, both
// inside t.TempDir(); the canary holds secret.txt.
func sandboxDir(t *testing.T) (ws, outside string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, outside = filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{ws, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("CANARY"), 0o644); err != nil {
		t.Fatal(err)
	}
	return ws, outside
}

// probeRun runs a probe script and returns its stdout lines.
func probeRun(t *testing.T, h *Host, ws string, mode Mode, script string) []string {
	t.Helper()
	o := probeOutcome(t, h, ws, mode, script, time.Minute)
	return strings.Split(strings.TrimSpace(string(o.Stdout)), "\n")
}

func probeOutcome(t *testing.T, h *Host, ws string, mode Mode, script string, d time.Duration) Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	o, err := h.Run(ctx, ws, mode, proto.Request{Op: proto.OpShell, Command: script})
	if err != nil {
		t.Fatalf("run %q: %v", script, err)
	}
	return o
}

func canaryIntact(t *testing.T, outside string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(outside, "secret.txt"))
	if err != nil || string(b) != "CANARY" {
		t.Fatalf("outside canary changed: %q %v", b, err)
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Fatalf("outside directory gained files: %v", entries)
	}
}
