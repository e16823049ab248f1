package session_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

// countingStore records how the Log drives its store.
type countingStore struct {
	*session.MemStore
	appends, durable, syncs int
}

func (c *countingStore) Append(ctx context.Context, id string, evs []session.Event, durable bool) error {
	c.appends++
	if durable {
		c.durable++
	}
	return c.MemStore.Append(ctx, id, evs, durable)
}

func (c *countingStore) Sync(ctx context.Context) error {
	c.syncs++
	return c.MemStore.Sync(ctx)
}

func TestLogNumbersStampsAndFillsTheHeader(t *testing.T) {
	ctx := context.Background()
	clock := newClock()
	var seen []int64
	log, err := session.Create(ctx, session.NewMemStore(), session.Header{Settings: session.Settings{Workspace: "/w"}}, session.LogOptions{
		Now: clock.Now, Rand: bytes.NewReader([]byte{0xa1, 0xb2, 0xc3}),
		OnEvent: func(e session.Event) { seen = append(seen, e.Seq) },
	})
	must(t, err)
	h := log.Header()
	if h.ID != "20261129-120301-a1b2c3" || h.Version != session.FormatVersion || h.CreatedAt != clock.t.UnixMilli() {
		t.Fatalf("header = %+v", h)
	}
	e0, err := log.Append(ctx, session.TypeTurnStart, session.TurnStart{Turn: 1})
	must(t, err)
	e1, err := log.AppendDurable(ctx, session.TypeStepStart, session.StepMark{Turn: 1, Step: 1})
	must(t, err)
	if e0.Seq != 0 || e1.Seq != 1 || e1.Time != e0.Time+1 || string(e0.Data) != `{"turn":1}` {
		t.Fatalf("events = %+v, %+v", e0, e1)
	}
	if len(seen) != 2 || seen[1] != 1 {
		t.Fatalf("OnEvent saw %v, want [0 1]", seen)
	}
}

func TestLogBuffersUntilADurableAppend(t *testing.T) {
	ctx := context.Background()
	store := &countingStore{MemStore: session.NewMemStore()}
	log, err := session.Create(ctx, store, session.Header{ID: "s"}, session.LogOptions{Now: newClock().Now, BatchSize: 4})
	must(t, err)
	for i := 0; i < 3; i++ {
		_, err := log.Append(ctx, session.TypeAssistantChunk, json.RawMessage(`{"n":1}`))
		must(t, err)
	}
	stored, _ := store.Load(ctx, "s")
	if len(stored) != 0 || len(log.Events()) != 3 {
		t.Fatalf("after 3 buffered appends the store has %d events and the log %d; want 0 and 3", len(stored), len(log.Events()))
	}
	_, err = log.Append(ctx, session.TypeAssistantChunk, nil) // reaches BatchSize
	must(t, err)
	if stored, _ = store.Load(ctx, "s"); len(stored) != 4 || store.durable != 0 {
		t.Fatalf("a full batch should be handed over unsynced: store has %d events, %d durable appends", len(stored), store.durable)
	}
	must(t, log.Sync(ctx))
	if store.syncs != 1 {
		t.Fatalf("Sync after an unsynced batch should sync the store once, got %d", store.syncs)
	}
	must(t, log.Sync(ctx))
	if store.syncs != 1 || store.appends != 1 {
		t.Fatalf("a second Sync with nothing new should not touch the store (syncs %d, appends %d)", store.syncs, store.appends)
	}
	_, err = log.Append(ctx, session.TypeAssistantChunk, nil)
	must(t, err)
	_, err = log.AppendDurable(ctx, session.TypeStepEnd, session.StepMark{Turn: 1, Step: 1})
	must(t, err)
	stored, _ = store.Load(ctx, "s")
	if len(stored) != 6 || store.durable != 1 {
		t.Fatalf("AppendDurable should write buffered events with it in one durable append: %d events, %d durable", len(stored), store.durable)
	}
}

func TestLogRefusesDataThatIsNotLosslessJSON(t *testing.T) {
	ctx := context.Background()
	log, err := session.Create(ctx, session.NewMemStore(), session.Header{ID: "s"}, session.LogOptions{})
	must(t, err)
	cases := []struct {
		name string
		typ  string
		data any
		want string
	}{
		{"NaN", "x-f", map[string]float64{"v": math.NaN()}, "lossless JSON"},
		{"infinity", "x-f", map[string]float64{"v": math.Inf(1)}, "lossless JSON"},
		{"a channel", "x-f", make(chan int), "lossless JSON"},
		{"raw bytes that are not JSON", "x-f", json.RawMessage(`{"a":`), "not valid JSON"},
		{"a NaN literal", "x-f", []byte(`{"a":NaN}`), "not valid JSON"},
		{"no type", "", struct{}{}, "needs a type"},
	}
	for _, c := range cases {
		t.Run(c.name+" is refused", func(t *testing.T) {
			for _, durable := range []bool{false, true} {
				var err error
				if durable {
					_, err = log.AppendDurable(ctx, c.typ, c.data)
				} else {
					_, err = log.Append(ctx, c.typ, c.data)
				}
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("err = %v, want one mentioning %q", err, c.want)
				}
			}
		})
	}
	if n := log.Len(); n != 0 {
		t.Fatalf("refused events must not be appended; log has %d", n)
	}
}

func TestLogEventsIsASnapshot(t *testing.T) {
	ctx := context.Background()
	log, err := session.Create(ctx, session.NewMemStore(), session.Header{ID: "s"}, session.LogOptions{})
	must(t, err)
	_, err = log.Append(ctx, "x-a", nil)
	must(t, err)
	snap := log.Events()
	_, err = log.Append(ctx, "x-b", nil)
	must(t, err)
	if len(snap) != 1 || len(log.Events()) != 2 {
		t.Fatalf("snapshot has %d events, log %d; want 1 and 2", len(snap), len(log.Events()))
	}
}

func TestOpenContinuesTheSequence(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemStore()
	log, err := session.Create(ctx, store, session.Header{ID: "s"}, session.LogOptions{})
	must(t, err)
	_, err = log.AppendDurable(ctx, session.TypeTurnStart, session.TurnStart{Turn: 1})
	must(t, err)
	_, err = log.Append(ctx, "x-lost", nil) // never synced: gone with the process
	must(t, err)

	again, err := session.Open(ctx, store, "s", session.LogOptions{})
	must(t, err)
	e, err := again.AppendDurable(ctx, session.TypeTurnEnd, session.TurnEnd{Turn: 1, Reason: session.ReasonCompleted})
	must(t, err)
	if e.Seq != 1 {
		t.Fatalf("seq after reopen = %d, want 1", e.Seq)
	}
}

func TestOpenDropsATornTailFromTheStore(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemStore()
	good := (&script{t: t}).turnStart(1).user("hi").events
	torn := session.Event{Seq: 2, Type: session.TypeAssistantChunk, Time: 9, Data: json.RawMessage(`{"turn":1,"ch`)}
	storeWith(t, store, "s", append(good, torn))

	log, err := session.Open(ctx, store, "s", session.LogOptions{})
	must(t, err)
	if len(log.Events()) != 2 || len(log.Warnings()) != 1 || !strings.Contains(log.Warnings()[0], "seq 2") {
		t.Fatalf("events %d, warnings %q; want 2 events and a warning naming seq 2", len(log.Events()), log.Warnings())
	}
	e, err := log.AppendDurable(ctx, session.TypeTurnEnd, session.TurnEnd{Turn: 1, Reason: session.ReasonInterrupted})
	must(t, err)
	if e.Seq != 2 {
		t.Fatalf("the next event took seq %d, want 2 (the torn record's place)", e.Seq)
	}
}

func TestAppendErrorsLeaveTheLogUnchanged(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemStore()
	log, err := session.Create(ctx, store, session.Header{ID: "s"}, session.LogOptions{})
	must(t, err)
	must(t, store.Close())
	if _, err := log.AppendDurable(ctx, session.TypeTurnStart, session.TurnStart{Turn: 1}); !errors.Is(err, session.ErrClosed) {
		t.Fatalf("err = %v, want ErrClosed", err)
	}
	if log.Len() != 0 {
		t.Fatalf("a failed durable append must not stay in the log (len %d)", log.Len())
	}
}

func TestConcurrentAppendersDeliverEventsInSeqOrder(t *testing.T) {
	ctx := context.Background()
	var seen []session.Event // OnEvent runs under the Log's lock
	log, err := session.Create(ctx, session.NewMemStore(), session.Header{ID: "s"}, session.LogOptions{
		Now:       newClock().Now,
		BatchSize: 7,
		OnEvent:   func(e session.Event) { seen = append(seen, e) },
	})
	must(t, err)
	const writers, each = 8, 50
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				var err error
				if i%10 == 9 {
					_, err = log.AppendDurable(ctx, "x-w", map[string]int{"w": w})
				} else {
					_, err = log.Append(ctx, "x-w", map[string]int{"w": w})
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(seen) != writers*each {
		t.Fatalf("OnEvent saw %d events, want %d", len(seen), writers*each)
	}
	for i, e := range seen {
		if e.Seq != int64(i) {
			t.Fatalf("OnEvent call %d got seq %d: events must be delivered in seq order", i, e.Seq)
		}
		if i > 0 && e.Time < seen[i-1].Time {
			t.Fatalf("seq %d is stamped %d, before seq %d at %d: time must not go backwards along the seq", e.Seq, e.Time, i-1, seen[i-1].Time)
		}
	}
}
