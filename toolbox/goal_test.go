package toolbox

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/goal"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// logged is a fake session log: it keeps the events and feeds the keeper
// the way the harness does.
type logged struct {
	k      *goal.Keeper
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
	l.k = goal.NewKeeper(root)
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

func (l *logged) call(t *testing.T, name, raw string) tools.Result {
	t.Helper()
	reg, err := tools.NewRegistry(tools.PresentNative, CreateGoal(l.k), GetGoal(l.k), UpdateGoal(l.k))
	if err != nil {
		t.Fatal(err)
	}
	return tools.NewRunner(reg, tools.RunnerConfig{Env: &tools.Env{Sink: l}}).Dispatch(context.Background(), tools.Call{ID: "c", Name: name, Raw: raw})
}

func update(g session.Goal, action, extra string) string {
	return `{"goal_id":"` + g.ID + `","revision":` + itoa(g.Revision) + `,"action":"` + action + `"` + extra + `}`
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestWhoMayChangeAGoal(t *testing.T) {
	t.Run("the agent creates a goal in a turn the user started", func(t *testing.T) {
		l := newLogged(true)
		l.turn(false)
		res := l.call(t, CreateGoalName, `{"objective":"make the tests pass","max_rounds":5}`)
		g, ok := l.k.Goal()
		if res.IsError || !ok || g.Status != session.GoalActive || g.MaxRounds != 5 || g.Revision != 1 || g.ID != "goal-1" {
			t.Fatalf("%q %+v", res.Content, g)
		}
		c := decode(t, l.events[len(l.events)-1])
		if c.Action != goal.ActionCreate || c.By != goal.ByAgent || c.Turn != goal.TurnUser || c.CallID != "c" {
			t.Fatalf("%+v", c)
		}
	})
	refusals := []struct {
		name, tool, args, want string
		root, round            bool
	}{
		{"a subagent cannot create one", CreateGoalName, `{"objective":"x"}`, "subagent cannot create", false, false},
		{"a goal round cannot create one", CreateGoalName, `{"objective":"x"}`, "goal round cannot create", true, true},
		{"a goal round cannot raise its cap", UpdateGoalName, `edit|,"max_rounds":100`, "goal round cannot edit", true, true},
		{"a goal round cannot pause it", UpdateGoalName, `pause|`, "goal round cannot pause", true, true},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			l := newLogged(c.root)
			if _, err := l.k.Change(l.Emit, goal.Request{Action: goal.ActionCreate, Objective: "ship it", MaxRounds: 3, By: goal.ByUser}); err != nil {
				t.Fatal(err)
			}
			l.turn(c.round)
			before, _ := l.k.Goal()
			args := c.args
			if a, extra, ok := strings.Cut(args, "|"); ok {
				args = update(before, a, extra)
			}
			n := len(l.events)
			res := l.call(t, c.tool, args)
			after, _ := l.k.Goal()
			if !res.IsError || res.Error.Code != tools.CodeDenied || !strings.Contains(res.Content, c.want) {
				t.Fatalf("%q", res.Content)
			}
			if after != before || len(l.events) != n {
				t.Fatalf("the refused call changed the goal (%+v → %+v) or logged %d events", before, after, len(l.events)-n)
			}
		})
	}
	t.Run("a goal round cannot resume a paused goal, and starts no rounds", func(t *testing.T) {
		l := newLogged(true)
		l.k.Change(l.Emit, goal.Request{Action: goal.ActionCreate, Objective: "ship it", By: goal.ByUser})
		l.turn(true)
		l.endTurn()
		l.k.Change(l.Emit, goal.Request{Action: goal.ActionPause, By: goal.ByUser})
		if _, ok, _ := l.k.StartRound(l.Emit); ok {
			t.Fatal("a paused goal started a round")
		}
		l.k.Change(l.Emit, goal.Request{Action: goal.ActionResume, By: goal.ByUser})
		l.turn(true)
		g, _ := l.k.Change(l.Emit, goal.Request{Action: goal.ActionPause, By: goal.ByUser}) // the user pauses it during the round
		if res := l.call(t, UpdateGoalName, update(g, "resume", "")); !res.IsError || !strings.Contains(res.Content, "goal round cannot resume") {
			t.Fatalf("%q", res.Content)
		}
	})
	t.Run("the user pauses and resumes directly", func(t *testing.T) {
		l := newLogged(true)
		l.k.Change(l.Emit, goal.Request{Action: goal.ActionCreate, Objective: "ship it", By: goal.ByUser})
		for _, a := range []string{goal.ActionPause, goal.ActionResume} {
			if _, err := l.k.Change(l.Emit, goal.Request{Action: a, By: goal.ByUser}); err != nil {
				t.Fatal(err)
			}
		}
		if g, _ := l.k.Goal(); g.Status != session.GoalActive || g.Revision != 3 {
			t.Fatalf("%+v", g)
		}
	})
}

func TestReportingAGoal(t *testing.T) {
	setup := func(rounds int) *logged {
		l := newLogged(true)
		l.k.Change(l.Emit, goal.Request{Action: goal.ActionCreate, Objective: "ship it", MaxRounds: 10, By: goal.ByUser})
		for range rounds {
			l.turn(true)
			l.endTurn()
		}
		l.turn(true)
		return l
	}
	t.Run("complete in the current round", func(t *testing.T) {
		l := setup(1)
		g, _ := l.k.Goal()
		if res := l.call(t, UpdateGoalName, update(g, "complete", "")); res.IsError || !strings.Contains(res.Content, "complete") {
			t.Fatalf("%q", res.Content)
		}
		if c := decode(t, l.events[len(l.events)-1]); c.Turn != goal.TurnRound || c.Goal.Status != session.GoalComplete {
			t.Fatalf("%+v", c)
		}
		if _, ok, _ := l.k.StartRound(l.Emit); ok {
			t.Fatal("a complete goal started a round")
		}
	})
	t.Run("a stale revision is refused", func(t *testing.T) {
		l := setup(0)
		g, _ := l.k.Goal()
		g.Revision++
		if res := l.call(t, UpdateGoalName, update(g, "complete", "")); !res.IsError || !strings.Contains(res.Content, "revision 1 (you sent goal-1 at revision 2)") {
			t.Fatalf("%q", res.Content)
		}
	})
	t.Run("blocked is refused in the first rounds", func(t *testing.T) {
		l := setup(1)
		g, _ := l.k.Goal()
		if res := l.call(t, UpdateGoalName, update(g, "blocked", `,"blocked_reason":"no network"`)); !res.IsError || !strings.Contains(res.Content, "round 2") {
			t.Fatalf("%q", res.Content)
		}
	})
	t.Run("blocked is accepted from round 3 with a reason", func(t *testing.T) {
		l := setup(2)
		g, _ := l.k.Goal()
		if res := l.call(t, UpdateGoalName, update(g, "blocked", "")); !res.IsError || res.Error.Code != tools.CodeInvalidArgs {
			t.Fatalf("without a reason: %q", res.Content)
		}
		if res := l.call(t, UpdateGoalName, update(g, "blocked", `,"blocked_reason":"the API key is missing"`)); res.IsError {
			t.Fatalf("%q", res.Content)
		}
		if g, _ := l.k.Goal(); g.Status != session.GoalBlocked || g.BlockedReason != "the API key is missing" {
			t.Fatalf("%+v", g)
		}
	})
}

func TestCreateChecksItsInput(t *testing.T) {
	l := newLogged(true)
	for _, c := range []struct{ name, args, want string }{
		{"an empty objective", `{"objective":"   "}`, "needs an objective"},
		{"a negative cap", `{"objective":"x","max_rounds":-1}`, "max_rounds"},
		{"a cap too large", `{"objective":"x","max_rounds":20000}`, "max_rounds"},
	} {
		t.Run(c.name+" is refused", func(t *testing.T) {
			l.turn(false)
			defer l.endTurn()
			if res := l.call(t, CreateGoalName, c.args); !res.IsError || !strings.Contains(res.Content, c.want) {
				t.Fatalf("%q", res.Content)
			}
		})
	}
	t.Run("a second goal while one is active is refused", func(t *testing.T) {
		l.turn(false)
		defer l.endTurn()
		l.call(t, CreateGoalName, `{"objective":"one"}`)
		if res := l.call(t, CreateGoalName, `{"objective":"two"}`); !res.IsError || !strings.Contains(res.Content, "already set") {
			t.Fatalf("%q", res.Content)
		}
	})
}

func decode(t *testing.T, e session.Event) session.GoalChange {
	t.Helper()
	var c session.GoalChange
	if err := json.Unmarshal(e.Data, &c); err != nil {
		t.Fatal(err)
	}
	return c
}
