package session_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
)

func TestFork(t *testing.T) {
	src := (&script{t: t}).completeTurn(1).completeTurn(2).turnStart(3).stepStart(3, 1).user("open")
	turnEnds := map[int]int{} // turn → index of its turn/end
	for i, e := range src.events {
		if e.Type == session.TypeTurnEnd {
			turnEnds[len(turnEnds)+1] = i
		}
	}
	now := time.UnixMilli(5_000_000)
	cases := []struct {
		name    string
		upto    int
		wantCut int // last copied index
		wantErr string
	}{
		{name: "turn 0 copies every complete turn", upto: 0, wantCut: turnEnds[2]},
		{name: "turn 1 copies through its turn/end", upto: 1, wantCut: turnEnds[1]},
		{name: "an open turn cannot be forked", upto: 3, wantErr: "no completed turn 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			store := session.NewMemStore()
			storeWith(t, store, "parent", src.events)
			h, err := session.Fork(ctx, store, "parent", c.upto, "child", now)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			must(t, err)
			if h.Parent != "parent" || h.ParentSeq != int64(c.wantCut) || h.Depth != 1 || h.Workspace != "/w" || h.CreatedAt != now.UnixMilli() {
				t.Fatalf("header = %+v", h)
			}
			got, err := session.LoadSession(ctx, store, "child")
			must(t, err)
			if got.Header != h || len(got.Events) != c.wantCut+2 {
				t.Fatalf("child has %d events, want %d", len(got.Events), c.wantCut+2)
			}
			for i := 0; i <= c.wantCut; i++ {
				a, b := got.Events[i], src.events[i]
				if a.Seq != b.Seq || a.Type != b.Type || a.Time != b.Time || string(a.Data) != string(b.Data) {
					t.Fatalf("copied event %d = %+v, want %+v", i, a, b)
				}
			}
			seed := got.Events[len(got.Events)-1]
			var d session.EndSeed
			must(t, json.Unmarshal(seed.Data, &d))
			if seed.Type != session.TypeEndSeed || d.Parent != "parent" || d.ParentSeq != int64(c.wantCut) {
				t.Fatalf("seed = %+v %+v", seed, d)
			}
			if plan, _ := session.Repair(got.Events); len(plan.Events) != 0 {
				t.Fatalf("a fork of complete turns needs no repair, got %+v", plan)
			}
			grand, err := session.Fork(ctx, store, "child", 0, "", now)
			must(t, err)
			if grand.Depth != 2 || grand.Parent != "child" || !strings.HasPrefix(grand.ID, "19700101-012320-") {
				t.Fatalf("fork of a fork = %+v", grand)
			}
		})
	}
}

func TestForkOfASessionWithoutCompleteTurnsCopiesNothing(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemStore()
	storeWith(t, store, "p", (&script{t: t}).turnStart(1).events)
	h, err := session.Fork(ctx, store, "p", 0, "c", time.UnixMilli(1))
	must(t, err)
	evs, err := store.Load(ctx, "c")
	must(t, err)
	if h.ParentSeq != -1 || len(evs) != 1 || evs[0].Type != session.TypeEndSeed {
		t.Fatalf("header %+v, events %+v", h, evs)
	}
}
