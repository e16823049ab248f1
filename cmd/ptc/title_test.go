package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

// listed is ptc sessions --output json.
func listed(t *testing.T, c *cli) map[string]session.Summary {
	t.Helper()
	var list []session.Summary
	if err := json.Unmarshal([]byte(c.ok("sessions", "--output", "json")), &list); err != nil {
		t.Fatal(err)
	}
	out := map[string]session.Summary{}
	for _, s := range list {
		out[s.Header.ID] = s
	}
	return out
}

// The must-show of issue 24.4: after a first turn, ptc sessions shows the
// title the model answered to the title request, cleaned to one plain
// line; one title only (a second turn asks for none); a failed request,
// --no-title and a preset's title: false keep the first prompt's line.
func TestTheModelTitlesASessionAfterItsFirstTurn(t *testing.T) {
	c := newCLI(t)
	ws := t.TempDir()
	run := func(model string, args ...string) string {
		t.Helper()
		args = append([]string{"run", "--preset", "standard", "--workspace", ws, "--model", "script:" + model, "--approval", "never", "--output", "json"}, args...)
		return parseFinal(t, c.ok(args...)).SessionID
	}
	titled := scriptJSON(t, map[string]any{
		"replies": []any{reply("a day"), reply("an hour")},
		"title":   map[string]any{"text": "\"Title: **Décider la durée\x1b[2J du cache**.\"\nand a second line"},
	})
	id := run(titled, "combien de temps garder le cache ?\nle reste de la question")
	text := c.ok("sessions")
	if !strings.Contains(text, "Décider la durée") || strings.Contains(text, "\x1b") || strings.Contains(text, "**") || strings.Contains(text, "combien de temps") {
		t.Fatalf("ptc sessions does not show the model's title:\n%s", text)
	}
	if got := listed(t, c)[id].Title; got != "Décider la durée [2J du cache" {
		t.Fatalf("title %q", got)
	}
	// A second turn keeps the title and asks for no other.
	c.ok("run", "--resume", id, "--model", "script:"+scriptJSON(t, map[string]any{"replies": []any{reply("ok")}, "title": map[string]any{"text": "Another title"}}), "--output", "json", "and now?")
	if titles := len(ofType(c.show(id).Events, session.TypeTitle)); titles != 1 || listed(t, c)[id].Title != "Décider la durée [2J du cache" {
		t.Fatalf("%d session/title events, title %q", titles, listed(t, c)[id].Title)
	}

	untitled := scriptJSON(t, map[string]any{"replies": []any{reply("done")}})
	failed := run(untitled, "first line of the prompt\nsecond line")
	refused := run(scriptJSON(t, map[string]any{"replies": []any{reply("done")}, "title": map[string]any{"error": map[string]any{"status": 500, "message": "down"}}}), "a failing title request")
	off := run(titled, "--no-title", "titles are off here")

	presets := filepath.Join(c.home, "presets")
	if err := os.MkdirAll(presets, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(presets, "quiet.yaml"), []byte("id: quiet\ndescription: no titles\npersona: You are terse.\ntools: [read]\npresentation: native\ntitle: false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	quiet := parseFinal(t, c.ok("run", "--preset", "quiet", "--workspace", ws, "--model", "script:"+titled, "--approval", "never", "--output", "json", "the quiet preset")).SessionID

	all := listed(t, c)
	for id, want := range map[string]string{failed: "first line of the prompt", refused: "a failing title request", off: "titles are off here", quiet: "the quiet preset"} {
		if all[id].Title != want || len(ofType(c.show(id).Events, session.TypeTitle)) != 0 {
			t.Errorf("session %s: title %q, want the first line %q", id, all[id].Title, want)
		}
	}
}

func ofType(events []session.Event, typ string) []session.Event {
	var out []session.Event
	for _, e := range events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}
