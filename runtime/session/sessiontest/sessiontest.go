// Package sessiontest is the conformance suite every session.Store must
// pass. A store's own tests call Run (and RunPersistent for stores that
// survive a close) with a constructor; the suite creates its own sessions.
package sessiontest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Run checks the Store contract on stores made by newStore; each subtest
// gets a fresh store and closes it.
func Run(t *testing.T, newStore func(t *testing.T) session.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s session.Store)
	}{
		{"create then header returns the header", testCreateHeader},
		{"create of an existing id fails with ErrExists", testCreateExists},
		{"unknown sessions fail with ErrNotFound", testNotFound},
		{"append refuses seqs that do not continue the log", testSeqGap},
		{"ten thousand events load back in seq order", testManyEvents},
		{"a 1 MB event round-trips", testLargeEvent},
		{"readers see a growing prefix while one writer appends", testConcurrentReaders},
		{"list puts the most recently updated first and filters by cwd", testList},
		{"a closed store fails with ErrClosed", testClosed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			defer s.Close()
			tc.fn(t, s)
		})
	}
}

// RunPersistent checks that a store reopened on the same directory sees
// every session, header and durable event of the previous open. open is
// called several times with the same dir.
func RunPersistent(t *testing.T, open func(t *testing.T, dir string) session.Store) {
	t.Run("reopening after close shows every durable event", func(t *testing.T) {
		dir := t.TempDir()
		ctx := context.Background()
		s := open(t, dir)
		h := header("reopen", "/w", 1000)
		must(t, s.Create(ctx, h))
		must(t, s.Append(ctx, h.ID, events(0, 500, 1001), false))
		must(t, s.Append(ctx, h.ID, events(500, 1, 1002), true))
		must(t, s.Close())

		s = open(t, dir)
		got, err := s.Header(ctx, h.ID)
		must(t, err)
		if got != h {
			t.Fatalf("header after reopen = %+v, want %+v", got, h)
		}
		checkEvents(t, s, h.ID, 501)
		must(t, s.Append(ctx, h.ID, events(501, 10, 1003), true))
		must(t, s.Close())

		s = open(t, dir)
		defer s.Close()
		checkEvents(t, s, h.ID, 511)
		list, err := s.List(ctx, session.ListOptions{})
		must(t, err)
		if len(list) != 1 || list[0].Events != 511 || list[0].UpdatedAt != 1003 {
			t.Fatalf("list after reopen = %+v, want one session with 511 events updated at 1003", list)
		}
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func header(id, cwd string, created int64) session.Header {
	return session.Header{ID: id, CreatedAt: created, Settings: session.Settings{Workspace: cwd, Preset: "ptc"}, Version: session.FormatVersion}
}

// events makes n events from seq first, all stamped at time.
func events(first int64, n int, time int64) []session.Event {
	out := make([]session.Event, n)
	for i := range out {
		seq := first + int64(i)
		out[i] = session.Event{Seq: seq, Type: session.TypeAssistantChunk, Time: time,
			Data: json.RawMessage(fmt.Sprintf(`{"i":%d}`, seq))}
	}
	return out
}

// checkEvents loads id and verifies it holds exactly n events made by events().
func checkEvents(t *testing.T, s session.Store, id string, n int) {
	t.Helper()
	got, err := s.Load(context.Background(), id)
	must(t, err)
	if len(got) != n {
		t.Fatalf("loaded %d events, want %d", len(got), n)
	}
	for i, e := range got {
		want := fmt.Sprintf(`{"i":%d}`, i)
		if e.Seq != int64(i) || e.Type != session.TypeAssistantChunk || string(e.Data) != want {
			t.Fatalf("event %d = {seq %d, type %q, data %s}, want seq %d data %s", i, e.Seq, e.Type, e.Data, i, want)
		}
	}
}

func testCreateHeader(t *testing.T, s session.Store) {
	ctx := context.Background()
	h := header("a", "/work/a", 1000)
	h.Parent, h.ParentSeq, h.Depth, h.Model = "p", 7, 2, "m"
	must(t, s.Create(ctx, h))
	got, err := s.Header(ctx, "a")
	must(t, err)
	if got != h {
		t.Fatalf("header = %+v, want %+v", got, h)
	}
	evs, err := s.Load(ctx, "a")
	must(t, err)
	if len(evs) != 0 {
		t.Fatalf("a new session has %d events, want 0", len(evs))
	}
}

func testCreateExists(t *testing.T, s session.Store) {
	ctx := context.Background()
	must(t, s.Create(ctx, header("a", "/w", 1)))
	if err := s.Create(ctx, header("a", "/w", 2)); !errors.Is(err, session.ErrExists) {
		t.Fatalf("second create: err = %v, want ErrExists", err)
	}
}

func testNotFound(t *testing.T, s session.Store) {
	ctx := context.Background()
	if _, err := s.Header(ctx, "nope"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Header: err = %v, want ErrNotFound", err)
	}
	if _, err := s.Load(ctx, "nope"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Load: err = %v, want ErrNotFound", err)
	}
	if err := s.Append(ctx, "nope", events(0, 1, 1), true); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Append: err = %v, want ErrNotFound", err)
	}
}

func testSeqGap(t *testing.T, s session.Store) {
	ctx := context.Background()
	must(t, s.Create(ctx, header("a", "/w", 1)))
	bad := map[string][]session.Event{
		"first seq is not 0":      events(1, 1, 1),
		"batch is not contiguous": append(events(0, 1, 1), events(2, 1, 1)...),
		"batch repeats a seq":     append(events(0, 1, 1), events(0, 1, 1)...),
		"first seq is negative":   events(-1, 1, 1),
		"a batch after the gap":   events(5, 3, 1),
	}
	for name, evs := range bad {
		if err := s.Append(ctx, "a", evs, true); !errors.Is(err, session.ErrSeqGap) {
			t.Errorf("%s: err = %v, want ErrSeqGap", name, err)
		}
	}
	checkEvents(t, s, "a", 0)
	must(t, s.Append(ctx, "a", events(0, 2, 1), true))
	if err := s.Append(ctx, "a", events(1, 1, 1), true); !errors.Is(err, session.ErrSeqGap) {
		t.Errorf("re-appending seq 1: err = %v, want ErrSeqGap", err)
	}
	checkEvents(t, s, "a", 2)
}

func testManyEvents(t *testing.T, s session.Store) {
	ctx := context.Background()
	must(t, s.Create(ctx, header("a", "/w", 1)))
	must(t, s.Create(ctx, header("b", "/w", 1)))
	const n = 10_000
	for seq := int64(0); seq < n; {
		size := int(seq%997) + 1
		if seq+int64(size) > n {
			size = int(n - seq)
		}
		must(t, s.Append(ctx, "a", events(seq, size, 2), seq%3 == 0))
		seq += int64(size)
	}
	must(t, s.Append(ctx, "b", events(0, 5, 2), true))
	must(t, s.Sync(ctx))
	checkEvents(t, s, "a", n)
	checkEvents(t, s, "b", 5)
}

func testLargeEvent(t *testing.T, s session.Store) {
	ctx := context.Background()
	must(t, s.Create(ctx, header("a", "/w", 1)))
	text := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	data, err := json.Marshal(session.ToolResult{CallID: "c1", Content: session.TextBlocks(text)})
	must(t, err)
	big := session.Event{Seq: 1, Type: session.TypeToolResult, Time: 5, Data: data}
	must(t, s.Append(ctx, "a", []session.Event{events(0, 1, 5)[0], big, {Seq: 2, Type: "x-tail", Time: 6, Data: json.RawMessage(`{}`)}}, true))
	got, err := s.Load(ctx, "a")
	must(t, err)
	if len(got) != 3 || !bytes.Equal(got[1].Data, data) || got[1].Type != session.TypeToolResult || got[1].Time != 5 {
		t.Fatalf("the 1 MiB event did not round-trip (got %d events)", len(got))
	}
	if got[2].Type != "x-tail" || got[2].Seq != 2 {
		t.Fatalf("event after the big one = %+v", got[2])
	}
}

func testConcurrentReaders(t *testing.T, s session.Store) {
	ctx := context.Background()
	must(t, s.Create(ctx, header("a", "/w", 1)))
	const total, batch, readers = 2000, 20, 4
	var wg sync.WaitGroup
	done := make(chan struct{})
	errs := make(chan error, readers+1)
	for r := 0; r < readers; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := 0
			for {
				select {
				case <-done:
					return
				default:
				}
				got, err := s.Load(ctx, "a")
				if err != nil {
					errs <- err
					return
				}
				if len(got) < last {
					errs <- fmt.Errorf("a reader saw %d events after %d", len(got), last)
					return
				}
				for i, e := range got {
					if e.Seq != int64(i) {
						errs <- fmt.Errorf("a reader saw seq %d at position %d", e.Seq, i)
						return
					}
				}
				last = len(got)
				if _, err := s.List(ctx, session.ListOptions{}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for seq := int64(0); seq < total; seq += batch {
		if err := s.Append(ctx, "a", events(seq, batch, seq), seq%100 == 0); err != nil {
			errs <- err
			break
		}
	}
	close(done)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	checkEvents(t, s, "a", total)
}

func testList(t *testing.T, s session.Store) {
	ctx := context.Background()
	must(t, s.Create(ctx, header("old", "/w1", 100)))
	must(t, s.Create(ctx, header("mid", "/w2", 200)))
	must(t, s.Create(ctx, header("new", "/w1", 300)))
	must(t, s.Append(ctx, "old", events(0, 3, 400), true)) // now the most recent
	must(t, s.Append(ctx, "mid", events(0, 1, 250), false))
	cases := []struct {
		name string
		opts session.ListOptions
		want []string
	}{
		{"all sessions, newest update first", session.ListOptions{}, []string{"old", "new", "mid"}},
		{"limit keeps the newest", session.ListOptions{Limit: 2}, []string{"old", "new"}},
		{"cwd keeps one workspace", session.ListOptions{Cwd: "/w1"}, []string{"old", "new"}},
		{"cwd and limit combine", session.ListOptions{Cwd: "/w2", Limit: 5}, []string{"mid"}},
		{"unknown cwd lists nothing", session.ListOptions{Cwd: "/w"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := s.List(ctx, c.opts)
			must(t, err)
			var ids []string
			for _, sum := range got {
				ids = append(ids, sum.Header.ID)
			}
			if fmt.Sprint(ids) != fmt.Sprint(c.want) {
				t.Fatalf("ids = %v, want %v", ids, c.want)
			}
		})
	}
	got, err := s.List(ctx, session.ListOptions{Limit: 1})
	must(t, err)
	if got[0].Events != 3 || got[0].UpdatedAt != 400 || got[0].Header.Workspace != "/w1" {
		t.Fatalf("summary = %+v, want 3 events updated at 400 in /w1", got[0])
	}
	t.Run("updatedAt is the latest event time even when a batch ends earlier", func(t *testing.T) {
		batch := append(events(1, 1, 500), events(2, 1, 450)...)
		must(t, s.Append(ctx, "mid", batch, true))
		got, err := s.List(ctx, session.ListOptions{Cwd: "/w2"})
		must(t, err)
		if len(got) != 1 || got[0].UpdatedAt != 500 {
			t.Fatalf("list = %+v, want mid updated at 500", got)
		}
	})
}

func testClosed(t *testing.T, s session.Store) {
	ctx := context.Background()
	must(t, s.Create(ctx, header("a", "/w", 1)))
	must(t, s.Close())
	if _, err := s.Load(ctx, "a"); !errors.Is(err, session.ErrClosed) {
		t.Errorf("Load after Close: err = %v, want ErrClosed", err)
	}
	if err := s.Append(ctx, "a", events(0, 1, 1), true); !errors.Is(err, session.ErrClosed) {
		t.Errorf("Append after Close: err = %v, want ErrClosed", err)
	}
}
