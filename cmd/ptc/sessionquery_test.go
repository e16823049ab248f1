package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

// runOnce runs one headless turn in ws whose model answers text, and
// returns the session's id.
func runTurnIn(t *testing.T, c *cli, ws, prompt, text string) string {
	t.Helper()
	model := scriptJSON(t, map[string]any{"replies": []any{reply(text)}})
	return parseFinal(t, c.ok("run", "--preset", "standard", "--workspace", ws, "--model", "script:"+model, "--approval", "never", "--output", "json", prompt)).SessionID
}

// The must-show of issue 24.3: three earlier sessions of a workspace, one
// mentioning ZEBRA-CACHE-DECISION; session_search finds it with its id and
// not the session of another workspace that mentions it too;
// session_read returns its events; ptc sessions --search ZEBRA lists it.
func TestSessionSearchAndReadFindAnEarlierSessionOfTheWorkspaceOnly(t *testing.T) {
	c := newCLI(t)
	ws, other := t.TempDir(), t.TempDir()
	runTurnIn(t, c, ws, "set up the build", "done: make works")
	want := runTurnIn(t, c, ws, "what should the cache do?", "We settled it: ZEBRA-CACHE-DECISION is to keep entries for a day.")
	runTurnIn(t, c, ws, "rename the package", "renamed")
	foreign := runTurnIn(t, c, other, "ZEBRA-CACHE-DECISION in another project", "noted")

	model := scriptJSON(t, map[string]any{"replies": []any{
		call("session_search", map[string]any{"query": "zebra-cache-decision"}),
		call("session_read", map[string]any{"session_id": want, "limit": 10}),
		call("session_read", map[string]any{"session_id": foreign}),
		reply("we keep entries for a day"),
	}})
	f := parseFinal(t, c.ok("run", "--preset", "standard", "--workspace", ws, "--model", "script:"+model, "--approval", "never", "--output", "json",
		"what did we decide about the cache?"))
	var res []session.ToolResult
	for _, e := range c.show(f.SessionID).Events {
		if e.Type == session.TypeToolResult {
			var r session.ToolResult
			if err := json.Unmarshal(e.Data, &r); err != nil {
				t.Fatal(err)
			}
			res = append(res, r)
		}
	}
	if len(res) != 3 {
		t.Fatalf("%d results", len(res))
	}
	found := resultText(res[0])
	if res[0].IsError || !strings.Contains(found, want) || !strings.Contains(found, "ZEBRA-CACHE-DECISION") || strings.Contains(found, foreign) {
		t.Fatalf("session_search must find %s and not %s:\n%s", want, foreign, found)
	}
	read := resultText(res[1])
	if res[1].IsError || !strings.Contains(read, "what should the cache do?") || !strings.Contains(read, "keep entries for a day") || !strings.Contains(read, "turn/end") {
		t.Fatalf("session_read of %s:\n%s", want, read)
	}
	if !res[2].IsError || !strings.Contains(resultText(res[2]), "no session") || strings.Contains(resultText(res[2]), "another project") {
		t.Fatalf("another workspace's session must read as not found: %+v", res[2])
	}

	out := c.ok("sessions", "--search", "ZEBRA")
	if !strings.Contains(out, want) || !strings.Contains(out, "ZEBRA-CACHE-DECISION") {
		t.Fatalf("ptc sessions --search ZEBRA:\n%s", out)
	}
	var hits []session.Hit
	if err := json.Unmarshal([]byte(c.ok("sessions", "--search", "we SETTLED", "--output", "json")), &hits); err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].Summary.Header.ID != want || hits[0].Kind != session.FindAnswer {
		t.Fatalf("--search --output json: %+v", hits)
	}
	if out := c.ok("sessions", "--search", "nothing matches this"); !strings.Contains(out, "no session matches") {
		t.Fatalf("no match:\n%s", out)
	}
	if _, errs, code := c.run("sessions", "--search", " "); code == 0 || !strings.Contains(errs, "needs some text") {
		t.Fatalf("an empty search: %d %s", code, errs)
	}
}
