package session

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	badger "github.com/dgraph-io/badger/v4"
)

// A record whose bytes cannot be unpacked (a write cut short on a store
// that lost part of a value) comes back with no type and is dropped as a
// torn tail by Open, which then removes it from the store.
func TestBadgerTornRecordIsDroppedAndTruncated(t *testing.T) {
	ctx := context.Background()
	s, err := OpenBadger(t.TempDir(), BadgerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Create(ctx, Header{ID: "s", Settings: Settings{Workspace: "/w"}, Version: FormatVersion}); err != nil {
		t.Fatal(err)
	}
	good := []Event{
		{Seq: 0, Type: TypeTurnStart, Time: 1, Data: json.RawMessage(`{"turn":1}`)},
		{Seq: 1, Type: TypeUserMessage, Time: 2, Data: json.RawMessage(`{"id":"u"}`)},
	}
	if err := s.Append(ctx, "s", good, true); err != nil {
		t.Fatal(err)
	}
	err = s.db.Update(func(txn *badger.Txn) error {
		if err := txn.Set(eventKey("s", 2), []byte{0, 0, 1}); err != nil {
			return err
		}
		return txn.Set(metaKey("s"), meta{count: 3, updatedAt: 3}.encode())
	})
	if err != nil {
		t.Fatal(err)
	}
	log, err := Open(ctx, s, "s", LogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Events()) != 2 || len(log.Warnings()) != 1 || !strings.Contains(log.Warnings()[0], "seq 2") {
		t.Fatalf("events %d, warnings %q", len(log.Events()), log.Warnings())
	}
	if e, err := log.AppendDurable(ctx, TypeTurnEnd, TurnEnd{Turn: 1, Reason: ReasonInterrupted}); err != nil || e.Seq != 2 {
		t.Fatalf("append after truncation: %+v, %v", e, err)
	}
	ld, err := LoadSession(ctx, s, "s")
	if err != nil || len(ld.Events) != 3 || ld.Torn != 0 {
		t.Fatalf("reload: %d events, torn %d, err %v", len(ld.Events), ld.Torn, err)
	}
}

func TestEventEncodingRoundTrips(t *testing.T) {
	cases := []Event{
		{Seq: 7, Type: TypeToolResult, Time: 1_700_000_000_000, Data: json.RawMessage(`{"a":"b"}`)},
		{Seq: 0, Type: "x-" + strings.Repeat("t", 300), Time: 0, Data: json.RawMessage(`[]`)},
	}
	for _, e := range cases {
		got := decodeEvent(e.Seq, encodeEvent(e))
		if got.Seq != e.Seq || got.Type != e.Type || got.Time != e.Time || string(got.Data) != string(e.Data) {
			t.Fatalf("round trip of %+v gave %+v", e, got)
		}
	}
}

func FuzzDecodeEventNeverPanics(f *testing.F) {
	f.Add([]byte{})
	f.Add(encodeEvent(Event{Type: TypeTurnStart, Time: 5, Data: json.RawMessage(`{}`)}))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		e := decodeEvent(3, b)
		if e.Type != "" && string(encodeEvent(e)) != string(b) {
			t.Fatalf("decoded %+v does not re-encode to its input", e)
		}
	})
}
