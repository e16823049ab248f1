package sandbox

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestAPoolWhoseRefillFailedFillsAgainWithoutACommand(t *testing.T) {
	h := probeHostWith(t, Config{PoolSize: 2})
	base, _ := sandboxDir(t)
	ws := filepath.Join(base, "later") // missing: instantiation fails
	if err := h.Prewarm(ws, WorkspaceWrite); err != nil {
		t.Fatal(err)
	}
	key, _ := newKey(Scope{Workspace: ws, Mode: WorkspaceWrite})
	p := h.pool(key)
	for p.failures.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	for len(p.ready) < p.size {
		time.Sleep(time.Millisecond)
	}
	if got := probeRun(t, h, ws, WorkspaceWrite, "write a.txt x\nread a.txt"); len(got) != 2 || got[1] != "DATA x" {
		t.Fatalf("the refilled pool does not serve commands: %q", got)
	}
}
