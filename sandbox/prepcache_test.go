package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// echoOnce runs `echo hi` on a fresh host over cache and checks it; it
// returns the notices the host gave.
func echoOnce(t *testing.T, cache string) []string {
	t.Helper()
	var notices []string
	h := NewHost(Config{CacheDir: cache, PoolSize: -1, Notice: func(s string) { notices = append(notices, s) }})
	defer h.Close(context.Background())
	o, err := h.Run(context.Background(), t.TempDir(), WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: "echo hi"})
	if err != nil || o.ExitCode != 0 || string(o.Stdout) != "hi\n" {
		t.Fatalf("echo hi: %+v, %v", o, err)
	}
	if !h.interruptible {
		t.Fatal("the guest was compiled without the interrupt rewrite")
	}
	return notices
}

func TestThePreparedGuestIsKeptInTheCacheAndSurvivesDamage(t *testing.T) {
	cache := t.TempDir()
	if n := echoOnce(t, cache); len(n) != 1 || n[0] != ColdCompileNotice {
		t.Fatalf("a cold compile gave the notices %q", n)
	}
	kept, _ := filepath.Glob(filepath.Join(cache, "guest-*.wasm"))
	if len(kept) != 1 {
		t.Fatalf("prepared guests in the cache: %v", kept)
	}
	t.Run("a second host starts from the kept copy, silently", func(t *testing.T) {
		if n := echoOnce(t, cache); len(n) != 0 {
			t.Fatalf("a warm start gave the notices %q", n)
		}
	})
	t.Run("a damaged copy is replaced, not fatal", func(t *testing.T) {
		if err := os.WriteFile(kept[0], []byte("\x00asm broken"), 0o600); err != nil {
			t.Fatal(err)
		}
		echoOnce(t, cache)
		if b, err := os.ReadFile(kept[0]); err != nil || len(b) < 1000 {
			t.Fatalf("the damaged copy was not rewritten (%d bytes, %v)", len(b), err)
		}
	})
}
