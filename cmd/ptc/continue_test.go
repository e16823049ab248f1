package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ptc run -c continues the latest session of the workspace it runs in,
// not another workspace's, and says so when there is none.
func TestContinueResumesTheWorkspacesLatestSession(t *testing.T) {
	c := newCLI(t)
	hello := "script:" + examplePath(t, "hello.json")
	ws, other := t.TempDir(), t.TempDir()
	id := func(out string) string {
		var r struct {
			SessionID string `json:"session_id"`
			Turn      int    `json:"turn"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: %q", err, out)
		}
		return r.SessionID
	}
	first := id(c.ok("run", "--workspace", ws, "--model", hello, "--output", "json", "one"))
	id(c.ok("run", "--workspace", other, "--model", hello, "--output", "json", "elsewhere"))
	again := c.command("run", "-c", "--output", "json", "two")
	again.Dir = ws
	out, errs, code := c.collect(again)
	if code != 0 || id(out) != first {
		t.Fatalf("ptc run -c in the workspace continued %q, want %s (exit %d, %s)", out, first, code, errs)
	}
	if turns := c.show(first); len(turns.Events) == 0 {
		t.Fatal("no events")
	}
	empty := c.command("run", "-c", "x")
	empty.Dir = filepath.Join(t.TempDir())
	if err := os.MkdirAll(empty.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := c.collect(empty); code == 0 || !strings.Contains(errs, "no session to continue") {
		t.Fatalf("ptc run -c with no session here: exit %d, %s", code, errs)
	}
}
