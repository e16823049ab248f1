package session_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

// ownerEnv makes the test binary own session "owned" in the catalog of the
// home it names: it writes a turn start and a prompt, says "ready" and
// keeps the session open until its stdin closes.
const ownerEnv = "PTC_SESSION_TEST_OWN"

func ownSession(home string) error {
	ctx := context.Background()
	o, err := session.NewCatalog(home).Create(ctx, session.Header{ID: "owned", Settings: session.Settings{Workspace: "/w"}}, session.LogOptions{})
	if err != nil {
		return err
	}
	if _, err := o.Append(ctx, session.TypeTurnStart, session.TurnStart{Turn: 1}); err != nil {
		return err
	}
	if _, err := o.AppendDurable(ctx, session.TypeUserMessage, session.UserMessage{ID: "u", Content: session.TextBlocks("fix the parser\nplease"), Source: session.Source{Kind: "user"}}); err != nil {
		return err
	}
	if _, err := o.AppendDurable(ctx, session.TypeStepEnd, session.StepMark{Turn: 1, Step: 1}); err != nil {
		return err
	}
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return o.Close()
}

// startOwner runs the owner process; release makes it close and exit.
func startOwner(t *testing.T, home string) (cmd *exec.Cmd, release func()) {
	t.Helper()
	cmd = exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), ownerEnv+"="+home)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	must(t, err)
	stdout, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || strings.TrimSpace(line) != "ready" {
		_ = cmd.Process.Kill()
		t.Fatalf("owner process did not get ready: %q, %v", line, err)
	}
	done := false
	release = func() {
		if done {
			return
		}
		done = true
		stdin.Close()
		_ = cmd.Wait()
	}
	t.Cleanup(release)
	return cmd, release
}

func createClosed(t testing.TB, cat *session.Catalog, id, cwd string, prompts ...string) {
	t.Helper()
	ctx := context.Background()
	o, err := cat.Create(ctx, session.Header{ID: id, Settings: session.Settings{Workspace: cwd, Model: "m"}}, session.LogOptions{})
	must(t, err)
	for i, p := range prompts {
		_, err := o.Append(ctx, session.TypeTurnStart, session.TurnStart{Turn: i + 1})
		must(t, err)
		_, err = o.Append(ctx, session.TypeUserMessage, session.UserMessage{ID: "u", Content: session.TextBlocks(p), Source: session.Source{Kind: "user"}})
		must(t, err)
		_, err = o.AppendDurable(ctx, session.TypeTurnEnd, session.TurnEnd{Turn: i + 1, Reason: session.ReasonCompleted})
		must(t, err)
	}
	must(t, o.Close())
}

func find(list []session.Summary, id string) (session.Summary, bool) {
	for _, s := range list {
		if s.Header.ID == id {
			return s, true
		}
	}
	return session.Summary{}, false
}

func TestCatalog(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	cat := session.NewCatalog(home)
	createClosed(t, cat, "20260101-000000-aaaaaa", "/w1", "  \n first prompt line \nsecond", "another")
	createClosed(t, cat, "20260101-000000-aaabbb", "/w2")
	owner, release := startOwner(t, home)

	t.Run("the listing shows every session from its record, the open one as live with its pid", func(t *testing.T) {
		list, err := cat.List(ctx, session.ListOptions{})
		must(t, err)
		if len(list) != 3 {
			t.Fatalf("%d sessions listed: %+v", len(list), list)
		}
		s, _ := find(list, "owned")
		if !s.Owner.Live || s.Owner.PID != owner.Process.Pid || s.Status != session.StatusRunning || s.Title != "fix the parser" || s.Turns != 1 {
			t.Fatalf("live session listed as %+v", s)
		}
		a, _ := find(list, "20260101-000000-aaaaaa")
		if a.Owner.Live || a.Title != "first prompt line" || a.Turns != 2 || a.Status != session.ReasonCompleted || a.Events != 6 {
			t.Fatalf("closed session listed as %+v", a)
		}
		if only, _ := cat.List(ctx, session.ListOptions{Cwd: "/w2"}); len(only) != 1 {
			t.Fatalf("cwd filter kept %d", len(only))
		}
	})
	t.Run("a second writer, here or elsewhere, is refused naming the holder", func(t *testing.T) {
		_, err := cat.Open(ctx, "owned", session.LogOptions{})
		want := fmt.Sprintf("pid %d", owner.Process.Pid)
		if !errors.Is(err, session.ErrLocked) || !strings.Contains(err.Error(), want) {
			t.Fatalf("err = %v, want ErrLocked naming %s", err, want)
		}
		if _, err := cat.Load(ctx, "owned"); !errors.Is(err, session.ErrLocked) {
			t.Fatalf("read-only load of a live session: %v", err)
		}
		if err := cat.Remove("owned"); !errors.Is(err, session.ErrLocked) {
			t.Fatalf("remove of a live session: %v", err)
		}
		o, err := cat.Open(ctx, "20260101-000000-aaabbb", session.LogOptions{})
		must(t, err)
		if _, err := cat.Open(ctx, "20260101-000000-aaabbb", session.LogOptions{}); !errors.Is(err, session.ErrLocked) {
			t.Fatalf("a second open in the same process: %v", err)
		}
		must(t, o.Close())
	})
	t.Run("prefixes resolve when they name one session", func(t *testing.T) {
		if id, err := cat.Resolve("20260101-000000-aaab"); err != nil || id != "20260101-000000-aaabbb" {
			t.Fatalf("unique prefix: %q, %v", id, err)
		}
		if _, err := cat.Resolve("20260101"); err == nil || !strings.Contains(err.Error(), "several") {
			t.Fatalf("ambiguous prefix: %v", err)
		}
		if _, err := cat.Resolve("zzz"); !errors.Is(err, session.ErrNotFound) {
			t.Fatalf("unknown prefix: %v", err)
		}
		for _, bad := range []string{"../x", ".", "..", ""} {
			if _, err := cat.Open(ctx, bad, session.LogOptions{}); !errors.Is(err, session.ErrNotFound) {
				t.Fatalf("id %q: %v", bad, err)
			}
		}
	})
	t.Run("once the owner exits the session is free again and keeps every durable event", func(t *testing.T) {
		release()
		ld, err := cat.Load(ctx, "owned")
		must(t, err)
		if len(ld.Events) != 3 {
			t.Fatalf("%d events after the owner left", len(ld.Events))
		}
		s := mustFind(t, cat, "owned")
		if s.Owner.Live {
			t.Fatalf("still live: %+v", s)
		}
	})
	t.Run("remove deletes a session that nobody holds", func(t *testing.T) {
		must(t, cat.Remove("20260101-000000-aaabbb"))
		if _, err := os.Stat(cat.SessionDir("20260101-000000-aaabbb")); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("directory still there: %v", err)
		}
	})
}

func mustFind(t *testing.T, cat *session.Catalog, id string) session.Summary {
	t.Helper()
	list, err := cat.List(context.Background(), session.ListOptions{})
	must(t, err)
	s, ok := find(list, id)
	if !ok {
		t.Fatalf("%s not listed", id)
	}
	return s
}

// killedOwner runs the owner process of session "owned" and kills it.
func killedOwner(t *testing.T) *session.Catalog {
	t.Helper()
	home := t.TempDir()
	owner, _ := startOwner(t, home)
	must(t, owner.Process.Kill())
	_ = owner.Wait()
	return session.NewCatalog(home)
}

func TestAKilledOwnerLeavesAnInterruptedSessionThatOpensAgain(t *testing.T) {
	ctx := context.Background()
	cat := killedOwner(t)

	s := mustFind(t, cat, "owned")
	if s.Owner.Live || s.Status != session.ReasonInterrupted {
		t.Fatalf("after SIGKILL: %+v", s)
	}
	o, err := cat.Open(ctx, "owned", session.LogOptions{})
	must(t, err)
	defer o.Close()
	if n := len(o.Events()); n != 3 {
		t.Fatalf("%d events survived the kill, want the 3 durable ones", n)
	}
	if _, err := o.Repair(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestAFlushCutOffByAKillIsNotReportedAsDamage(t *testing.T) {
	ctx := context.Background()
	cat := killedOwner(t)
	// A killed flush leaves a table newer than every one the MANIFEST
	// lists, beside the write-ahead file that still holds its entries.
	if m, _ := filepath.Glob(filepath.Join(cat.SessionDir("owned"), "log", "*.mem")); len(m) == 0 {
		t.Fatal("the killed owner left no write-ahead file")
	}
	must(t, os.WriteFile(filepath.Join(cat.SessionDir("owned"), "log", "000077.sst"), []byte("half a table"), 0o644))

	o, err := cat.Open(ctx, "owned", session.LogOptions{})
	must(t, err)
	defer o.Close()
	if n := len(o.Events()); n != 3 {
		t.Fatalf("%d events after the cut-off flush, want the 3 durable ones", n)
	}
}

func TestARound1StoreIsMigratedWithNothingLost(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	old, err := session.OpenBadger(session.StoreDir(home), session.BadgerOptions{})
	must(t, err)
	want := map[string]int{}
	for i, n := range []int{0, 5, 1200} {
		id := fmt.Sprintf("2025%04d-000000-abcdef", i)
		must(t, old.Create(ctx, session.Header{ID: id, CreatedAt: int64(i), Settings: session.Settings{Workspace: "/w", Model: "m"}, Version: 1}))
		if n > 0 {
			must(t, old.Append(ctx, id, events(0, n, 10), true))
		}
		want[id] = n
	}
	must(t, old.Close())

	cat := session.NewCatalog(home)
	list, err := cat.List(ctx, session.ListOptions{})
	must(t, err)
	if len(list) != 3 || len(cat.Notices()) != 0 {
		t.Fatalf("listed %d sessions after migration, notices %q", len(list), cat.Notices())
	}
	for id, n := range want {
		ld, err := cat.Load(ctx, id)
		must(t, err)
		if len(ld.Events) != n || ld.Header.Settings.Model != "m" {
			t.Fatalf("%s: %d events (want %d), header %+v", id, len(ld.Events), n, ld.Header)
		}
	}
	legacy := session.LegacyDir(home)
	for _, f := range []string{"MANIFEST", "MIGRATED"} {
		if _, err := os.Stat(filepath.Join(legacy, f)); err != nil {
			t.Errorf("the old store is not kept in %s: %v", legacy, err)
		}
	}
	if _, err := os.Stat(filepath.Join(session.StoreDir(home), "MANIFEST")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the old MANIFEST is still in the sessions directory: %v", err)
	}
	t.Run("the old store still opens as it was", func(t *testing.T) {
		s, err := session.OpenBadger(legacy, session.BadgerOptions{ReadOnly: true})
		must(t, err)
		defer s.Close()
		l, err := s.List(ctx, session.ListOptions{})
		must(t, err)
		if len(l) != 3 {
			t.Fatalf("old store lists %d", len(l))
		}
	})
}

func TestAnInterruptedMigrationResumes(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	old, err := session.OpenBadger(session.StoreDir(home), session.BadgerOptions{})
	must(t, err)
	for _, id := range []string{"a1", "a2"} {
		must(t, old.Create(ctx, session.Header{ID: id, Settings: session.Settings{Workspace: "/w"}, Version: 1}))
		must(t, old.Append(ctx, id, events(0, 3, 10), true))
	}
	must(t, old.Close())
	// The files were moved but the copy stopped half-way through a1.
	legacy := session.LegacyDir(home)
	must(t, os.MkdirAll(legacy, 0o700))
	entries, err := os.ReadDir(session.StoreDir(home))
	must(t, err)
	for _, e := range entries {
		must(t, os.Rename(filepath.Join(session.StoreDir(home), e.Name()), filepath.Join(legacy, e.Name())))
	}
	must(t, os.MkdirAll(filepath.Join(session.StoreDir(home), ".migrate-a1", "log"), 0o700))

	cat := session.NewCatalog(home)
	list, err := cat.List(ctx, session.ListOptions{})
	must(t, err)
	if len(list) != 2 {
		t.Fatalf("listed %+v, notices %q", list, cat.Notices())
	}
	for _, id := range []string{"a1", "a2"} {
		ld, err := cat.Load(ctx, id)
		must(t, err)
		if len(ld.Events) != 3 {
			t.Fatalf("%s: %d events", id, len(ld.Events))
		}
	}
}

// events makes n chunk events from seq first, all stamped at time.
func events(first int64, n int, time int64) []session.Event {
	out := make([]session.Event, n)
	for i := range out {
		seq := first + int64(i)
		out[i] = session.Event{Seq: seq, Type: session.TypeAssistantChunk, Time: time,
			Data: []byte(fmt.Sprintf(`{"i":%d}`, seq))}
	}
	return out
}
