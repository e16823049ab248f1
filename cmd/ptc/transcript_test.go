package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// ptc session show prints a transcript a person reads; --events the rows.
func TestSessionShowPrintsATranscript(t *testing.T) {
	c := newCLI(t)
	path := filepath.Join(t.TempDir(), "s.json")
	writeJSON(t, path, map[string]any{"replies": []any{
		map[string]any{"tool_calls": []any{map[string]any{"name": "bash", "arguments": map[string]any{"command": "echo hi", "description": "greet"}}}},
		map[string]any{"text": "All done here."},
	}})
	out := c.ok("run", "--preset", "standard", "--workspace", t.TempDir(), "--model", "script:"+path, "--output", "json", "say hi")
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	text := c.ok("session", "show", res.SessionID)
	for _, want := range []string{"> say hi", "→ bash $ echo hi", "← hi", "All done here.", "— turn 1 completed", "usage: "} {
		if !strings.Contains(text, want) {
			t.Fatalf("the transcript lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "turn/start") {
		t.Fatalf("the transcript shows raw rows:\n%s", text)
	}
	if rows := c.ok("session", "show", res.SessionID, "--events"); !strings.Contains(rows, "turn/start") || !strings.Contains(rows, "tool/result") {
		t.Fatalf("--events lacks the rows:\n%s", rows)
	}
}
