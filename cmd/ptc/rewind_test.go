package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A turn changes three files by three write paths — the edit tool, a
// guest command and a host program — and creates a fourth: session diff
// shows every change, a file changed by hand since makes the rewind
// refuse naming it, and once it is put back the rewind restores all of
// them byte for byte and removes the new one.
func TestRewindRestoresEveryWritePath(t *testing.T) {
	needHostTools(t)
	c := newCLI(t)
	ws := t.TempDir()
	orig := map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "b0\n", "c.txt": "c0\n"}
	for name, body := range orig {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	call := func(name string, args map[string]any) map[string]any {
		return map[string]any{"name": name, "arguments": args}
	}
	script := map[string]any{"replies": []any{
		map[string]any{"tool_calls": []any{call("read", map[string]any{"file_path": "a.txt"})}},
		map[string]any{"tool_calls": []any{
			call("edit", map[string]any{"file_path": "a.txt", "old_string": "two", "new_string": "TWO"}),
			call("bash", map[string]any{"command": "echo guest >> b.txt", "description": "guest"}),
			call("bash", map[string]any{"command": `python3 -c 'open("c.txt","w").write("py\n"); open("new.txt","w").write("n\n")'`, "description": "host"}),
		}},
		map[string]any{"text": "done"},
	}}
	path := filepath.Join(t.TempDir(), "s.json")
	writeJSON(t, path, script)
	out := c.ok("run", "--preset", "standard", "--workspace", ws, "--model", "script:"+path, "--output", "json", "change three files")
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a.txt": "one\nTWO\nthree\n", "b.txt": "b0\nguest\n", "c.txt": "py\n"} {
		if b, _ := os.ReadFile(filepath.Join(ws, name)); string(b) != want {
			t.Fatalf("the turn left %s as %q, want %q", name, b, want)
		}
	}
	diff := c.ok("session", "diff", res.SessionID)
	for _, want := range []string{"--- a/a.txt", "-two\n+TWO", "+++ b/b.txt", "+guest", "-c0\n+py", "--- /dev/null\n+++ b/new.txt"} {
		if !strings.Contains(diff, want) {
			t.Fatalf("session diff lacks %q:\n%s", want, diff)
		}
	}
	if turn := c.ok("session", "diff", res.SessionID, "--turn", "1"); turn != diff {
		t.Fatalf("the one turn's diff differs from the session's:\n%s\n---\n%s", turn, diff)
	}

	b := filepath.Join(ws, "b.txt")
	if err := os.WriteFile(b, []byte("b0\nguest\nby hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := c.run("rewind", res.SessionID, "--to-turn", "1")
	if code == 0 || !strings.Contains(errs, "b.txt") || !strings.Contains(errs, "changed outside ptc") {
		t.Fatalf("a rewind over a hand edit: exit %d, stderr %s", code, errs)
	}
	if got, _ := os.ReadFile(b); string(got) != "b0\nguest\nby hand\n" {
		t.Fatalf("the refused rewind changed b.txt: %q", got)
	}
	if err := os.WriteFile(b, []byte("b0\nguest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.ok("rewind", res.SessionID, "--to-turn", "1")
	for name, want := range orig {
		if got, _ := os.ReadFile(filepath.Join(ws, name)); string(got) != want {
			t.Fatalf("after the rewind %s is %q, want %q", name, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "new.txt")); !os.IsNotExist(err) {
		t.Fatalf("the rewind left the file the turn created: %v", err)
	}
	var rewinds int
	for _, e := range c.show(res.SessionID).Events {
		if e.Type == "session/rewind" {
			rewinds++
		}
	}
	if rewinds != 1 {
		t.Fatalf("%d session/rewind events, want 1", rewinds)
	}
}
