package natsstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/natsstore"
)

func TestEventsLargerThanAMessageArePutBackTogether(t *testing.T) {
	ns, err := natsstore.StartServer(natsstore.ServerOptions{StoreDir: t.TempDir(), Port: -1, MaxPayload: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
	s := openStore(t, connect(t, ns))
	ctx := context.Background()
	must(t, s.Create(ctx, session.Header{ID: "big", CreatedAt: 1}))
	text := strings.Repeat("ptc ", 200_000) // 800 kB: 14 parts
	data, _ := json.Marshal(map[string]string{"text": text})
	small := json.RawMessage(`{"n":1}`)
	var evs []session.Event
	for i := range 40 {
		d := small
		if i == 7 {
			d = data
		}
		evs = append(evs, session.Event{Seq: int64(i), Type: "x-e", Time: int64(i), Data: d})
	}
	must(t, s.Append(ctx, "big", evs, true))
	got, err := s.Load(ctx, "big")
	must(t, err)
	if len(got) != len(evs) {
		t.Fatalf("loaded %d events, want %d", len(got), len(evs))
	}
	for i, e := range got {
		if e.Seq != int64(i) || string(e.Data) != string(evs[i].Data) || e.Time != int64(i) {
			t.Fatalf("event %d did not round-trip (%d bytes)", i, len(e.Data))
		}
	}
}

func TestIdsThatAreNoSubjectTokenAreRefused(t *testing.T) {
	s := openStore(t, connect(t, startServer(t, "")))
	for _, id := range []string{"a.b", "a*", "a>", "a b", "ünï"} {
		err := s.Create(context.Background(), session.Header{ID: id, CreatedAt: 1})
		if err == nil || !strings.Contains(err.Error(), "cannot be kept in JetStream") {
			t.Errorf("create %q: err = %v", id, err)
		}
		if _, err := s.Load(context.Background(), id); !errors.Is(err, session.ErrNotFound) {
			t.Errorf("load %q: err = %v, want ErrNotFound", id, err)
		}
	}
}

func TestAForeignMessageOnASessionSubjectIsReported(t *testing.T) {
	ns := startServer(t, "")
	nc := connect(t, ns)
	s := openStore(t, nc)
	ctx := context.Background()
	must(t, s.Create(ctx, session.Header{ID: "a", CreatedAt: 1}))
	must(t, s.Append(ctx, "a", []session.Event{{Seq: 0, Type: "x-e", Time: 1, Data: json.RawMessage(`{}`)}}, true))
	// Someone publishes on the session's subject by hand.
	if _, err := nc.Request("ptc.s.a.ev", []byte("not ptc's"), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	ld, err := session.LoadSession(ctx, openStore(t, connect(t, ns)), "a")
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.Events) != 1 || ld.Torn != 1 {
		t.Fatalf("loaded %d events with %d torn, want the valid one and the foreign one dropped as torn", len(ld.Events), ld.Torn)
	}
	// Writing on goes through the fence and fails clearly rather than
	// numbering events after a message it cannot read.
	err = s.Append(ctx, "a", []session.Event{{Seq: 1, Type: "x-e", Time: 2, Data: json.RawMessage(`{}`)}}, true)
	if !errors.Is(err, session.ErrConflict) {
		t.Fatalf("an append after a foreign message: err = %v, want ErrConflict", err)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
