package natsstore

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

func TestRetriedAppendAfterALostAckIsStoredOnce(t *testing.T) {
	ns, err := StartServer(ServerOptions{StoreDir: t.TempDir(), Port: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
	nc, err := InProcess(ns)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	s, err := Open(context.Background(), nc, Config{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.Create(ctx, session.Header{ID: "a", CreatedAt: 1}); err != nil {
		t.Fatal(err)
	}
	evs := []session.Event{{Seq: 0, Type: "x-a", Time: 2, Data: json.RawMessage(`{}`)}, {Seq: 1, Type: "x-b", Time: 3, Data: json.RawMessage(`[1]`)}}
	before, err := s.fetchTip(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "a", evs, true); err != nil {
		t.Fatal(err)
	}
	// The writer never saw the acknowledgement: it still thinks the log
	// ends where it did, and sends the same events again.
	s.tips["a"] = before
	if err := s.Append(ctx, "a", evs, true); err != nil {
		t.Fatalf("the retry must succeed: %v", err)
	}
	got, err := s.Load(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Type != "x-b" {
		t.Fatalf("log after the retry = %+v, want the two events once", got)
	}
	info, err := s.events.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 1 {
		t.Fatalf("the stream holds %d messages, want 1", info.State.Msgs)
	}
	if err := s.Append(ctx, "a", []session.Event{{Seq: 2, Type: "x-c", Time: 4, Data: json.RawMessage(`{}`)}}, true); err != nil {
		t.Fatalf("appending after the retry: %v", err)
	}
}
