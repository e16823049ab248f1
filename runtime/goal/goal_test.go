package goal

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

// logged is a fake session log: it keeps the events and feeds the keeper
// the way the harness does.
type logged struct {
	k      *Keeper
	events []session.Event
}

func (l *logged) Emit(typ string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	e := session.Event{Seq: int64(len(l.events)), Type: typ, Data: b}
	l.events = append(l.events, e)
	l.k.Observe(e)
	return nil
}

func newLogged(root bool) *logged {
	l := &logged{}
	l.k = NewKeeper(root)
	return l
}

func (l *logged) turn(round bool) {
	if round {
		if _, ok, err := l.k.StartRound(l.Emit); err != nil || !ok {
			panic("no round")
		}
	}
	l.Emit(session.TypeTurnStart, session.TurnStart{})
}

func (l *logged) endTurn() { l.Emit(session.TypeTurnEnd, session.TurnEnd{}) }

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestRoundsAndTheCap(t *testing.T) {
	l := newLogged(true)
	l.k.Change(l.Emit, Request{Action: ActionCreate, Objective: "ship it", MaxRounds: 2, By: ByUser})
	var got []int
	for {
		r, ok, err := l.k.StartRound(l.Emit)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		got = append(got, r.Round)
		if p := RoundPrompt(mustGoal(t, l.k), r); !strings.Contains(p, "round "+itoa(r.Round)+" of 2") || !strings.Contains(p, "ship it") {
			t.Fatalf("%q", p)
		}
	}
	if len(got) != 2 || got[1] != 2 {
		t.Fatalf("rounds %v", got)
	}
	if g := mustGoal(t, l.k); g.Status != session.GoalMaxRounds || g.Rounds != 2 {
		t.Fatalf("%+v", g)
	}
	t.Run("a restored keeper continues where the log left off", func(t *testing.T) {
		k := NewKeeper(true)
		if err := k.Restore(l.events); err != nil {
			t.Fatal(err)
		}
		if g := mustGoal(t, k); g != mustGoal(t, l.k) {
			t.Fatalf("%+v", g)
		}
		if k.Turn() != "" {
			t.Fatalf("turn %q after restore", k.Turn())
		}
	})
	t.Run("the user raising the cap makes it active again", func(t *testing.T) {
		if _, err := l.k.Change(l.Emit, Request{Action: ActionEdit, MaxRounds: 3, By: ByUser}); err != nil {
			t.Fatal(err)
		}
		if r, ok, _ := l.k.StartRound(l.Emit); !ok || r.Round != 3 {
			t.Fatalf("%+v %v", r, ok)
		}
	})
}

func mustGoal(t *testing.T, k *Keeper) session.Goal {
	t.Helper()
	g, ok := k.Goal()
	if !ok {
		t.Fatal("no goal")
	}
	return g
}
