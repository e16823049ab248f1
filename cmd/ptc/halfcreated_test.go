package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

// A session killed while it was being created is either not listed (no
// header in its store: nothing can open it) or listed, shown and resumed
// (a header without its listing record): `ptc sessions`, `ptc session
// show` and `--resume` agree on every half-created state.
func TestHalfCreatedSessionsAgree(t *testing.T) {
	c := newCLI(t)
	ws := t.TempDir()
	hello := "script:" + examplePath(t, "hello.json")
	listed := func() []string {
		var list []session.Summary
		if err := json.Unmarshal([]byte(c.ok("sessions", "--output", "json")), &list); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, s := range list {
			ids = append(ids, s.Header.ID)
		}
		slices.Sort(ids)
		return ids
	}
	c.ok("run", "--workspace", ws, "--model", hello, "hi")
	c.ok("run", "--workspace", ws, "--model", hello, "hi")
	real := listed()
	if len(real) != 2 {
		t.Fatalf("sessions: %v", real)
	}
	dir := filepath.Join(c.home, "sessions")
	meta, err := os.ReadFile(filepath.Join(dir, real[0], "meta.json"))
	if err != nil {
		t.Fatal(err)
	}

	// Killed after the directory was made: nothing in it, or an empty
	// store, or a record whose owner never reached the header.
	husks := map[string]func(d string){
		"20261202-070000-aaaaaa": func(string) {},
		"20261202-070001-bbbbbb": func(d string) {
			st, err := session.OpenBadger(filepath.Join(d, "log"), session.BadgerOptions{Session: "20261202-070001-bbbbbb"})
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
		},
		"20261202-070002-cccccc": func(d string) {
			var s map[string]any
			if err := json.Unmarshal(meta, &s); err != nil {
				t.Fatal(err)
			}
			s["header"].(map[string]any)["id"] = "20261202-070002-cccccc"
			delete(s, "closed") // the record Create starts is not closed
			writeJSON(t, filepath.Join(d, "meta.json"), s)
		},
	}
	for id, fill := range husks {
		d := filepath.Join(dir, id)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		fill(d)
	}
	// Killed after the header, before the listing record.
	for _, f := range []string{"meta.json", "find.jsonl"} {
		os.Remove(filepath.Join(dir, real[1], f))
	}

	if got := listed(); !slices.Equal(got, real) {
		t.Fatalf("sessions lists %v, want only %v", got, real)
	}
	for id := range husks {
		if _, errs, code := c.run("session", "show", id); code == 0 || !strings.Contains(errs, "no session") {
			t.Fatalf("session show %s: exit %d %s", id, code, errs)
		}
		if _, errs, code := c.run("run", "--workspace", ws, "--model", hello, "--resume", id, "again"); code == 0 || !strings.Contains(errs, "no session") {
			t.Fatalf("--resume %s: exit %d %s", id, code, errs)
		}
	}
	if out := c.ok("session", "show", real[1]); !strings.Contains(out, "hi") {
		t.Fatalf("session show of a session without its record:\n%s", out)
	}
	c.ok("run", "--workspace", ws, "--model", hello, "--resume", real[1], "again")
	if got := c.show(real[1]); !slices.ContainsFunc(got.Events, func(e session.Event) bool {
		return e.Type == session.TypeUserMessage && strings.Contains(string(e.Data), "again")
	}) {
		t.Fatalf("the resumed session has no second prompt: %v", types(got.Events))
	}
	if got := listed(); !slices.Equal(got, real) {
		t.Fatalf("after the resume, sessions lists %v, want %v", got, real)
	}
}
