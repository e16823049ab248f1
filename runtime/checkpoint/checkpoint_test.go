package checkpoint_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ptc-dev/ptc/runtime/checkpoint"
	"github.com/ptc-dev/ptc/runtime/session"
)

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// history is a log of one turn holding cp.
func history(t *testing.T, cps ...session.Checkpoint) checkpoint.History {
	t.Helper()
	var events []session.Event
	add := func(typ string, data string) {
		events = append(events, session.Event{Seq: int64(len(events)), Type: typ, Data: []byte(data)})
	}
	for _, cp := range cps {
		add(session.TypeTurnStart, `{"turn":`+itoa(cp.Turn)+`}`)
		add(session.TypeCheckpoint, mustJSON(t, cp))
	}
	h, err := checkpoint.Read(events)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// A directory renamed whole, a file removed, a symlink made and a file
// over the cap: the recorder keeps what it may, the plan says what it
// cannot put back, and the rewind restores the rest.
func TestRecordPlanApply(t *testing.T) {
	ws := t.TempDir()
	store := checkpoint.Store{Dir: t.TempDir()}
	write(t, filepath.Join(ws, "d/x"), "x0")
	write(t, filepath.Join(ws, "gone"), "g0")
	write(t, filepath.Join(ws, "big"), "0123456789")
	rec, err := checkpoint.NewRecorder(ws, store, 5) // room for "x0" and "g0", not "big"
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	rec.Begin(1)
	for _, p := range []string{"d", "e", "gone", "link", "big", ".git/config"} {
		rec.Touch(p)
	}
	must(t, os.Rename(filepath.Join(ws, "d"), filepath.Join(ws, "e")))
	must(t, os.Remove(filepath.Join(ws, "gone")))
	must(t, os.Symlink("e/x", filepath.Join(ws, "link")))
	write(t, filepath.Join(ws, "big"), "changed")
	cp, ok := rec.End()
	if !ok || !cp.Partial {
		t.Fatalf("record %+v ok %v: want changes, partial (the cap was reached)", cp, ok)
	}
	h := history(t, cp)
	root, err := os.OpenRoot(ws)
	must(t, err)
	defer root.Close()
	plan, err := checkpoint.PlanRewind(h, root, store, 1)
	must(t, err)
	if len(plan.Lost) != 1 || plan.Lost[0] != "big" || len(plan.Conflicts) != 0 {
		t.Fatalf("plan lost %v conflicts %v, want lost [big]", plan.Lost, plan.Conflicts)
	}
	if _, err := checkpoint.Apply(plan, root, store); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(ws, "d/x")); got != "x0" {
		t.Fatalf("d/x = %q", got)
	}
	if got := read(t, filepath.Join(ws, "gone")); got != "g0" {
		t.Fatalf("gone = %q", got)
	}
	for _, p := range []string{"e", "link"} {
		if _, err := os.Lstat(filepath.Join(ws, p)); !os.IsNotExist(err) {
			t.Fatalf("%s survived the rewind: %v", p, err)
		}
	}
	if got := read(t, filepath.Join(ws, "big")); got != "changed" {
		t.Fatalf("a lost file was touched: %q", got)
	}
}

// A log naming a path outside the workspace, or a symlink leaving it, is
// refused before anything is written.
func TestPlanRefusesHostileRecords(t *testing.T) {
	ws := t.TempDir()
	root, err := os.OpenRoot(ws)
	must(t, err)
	defer root.Close()
	for _, f := range []session.FileChange{
		{Path: "../escape", Before: session.FileState{Kind: session.KindAbsent}, After: session.FileState{Kind: session.KindFile}},
		{Path: ".git/hooks/pre-commit", Before: session.FileState{Kind: session.KindAbsent}, After: session.FileState{Kind: session.KindFile}},
		{Path: "l", Before: session.FileState{Kind: session.KindSymlink, Target: "../../etc/passwd"}, After: session.FileState{Kind: session.KindAbsent}},
	} {
		h := history(t, session.Checkpoint{Turn: 1, Files: []session.FileChange{f}})
		if _, err := checkpoint.PlanRewind(h, root, checkpoint.Store{Dir: t.TempDir()}, 1); err == nil {
			t.Errorf("a record of %q planned without an error", f.Path)
		}
	}
}
