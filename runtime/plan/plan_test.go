package plan

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
)

const aPlan = "# Fix the parser\n\nThe parser drops trailing commas.\n\n1. Read parse.go and its tests\n2. [ ] Add a failing test\n- Fix `parseList` in parse.go\n"

func TestTodos(t *testing.T) {
	cases := []struct {
		name, plan string
		want       []string
	}{
		{"list items of every kind, checkboxes dropped", "# T\n- a\n* b\n+ c\n1) d\n10. e\n- [x] f\n", []string{"a", "b", "c", "d", "e", "f"}},
		{"nested items count too", "# T\n- a\n  - a.1\n", []string{"a", "a.1"}},
		{"a plan without a list becomes its title", "# Rename the flag\nJust do it.", []string{"Rename the flag"}},
		{"numbers without a dot and bare markers are not items", "# T\n2024 was a year\n-\n1.\n- [ ]\n", []string{"T"}},
		{"nothing at all gives an empty list", "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, td := range Todos(c.plan) {
				got = append(got, td.Content)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	t.Run("a huge plan is bounded", func(t *testing.T) {
		todos := Todos("# T\n" + strings.Repeat("- "+strings.Repeat("é", 400)+"\n", 80))
		if len(todos) != maxTodos {
			t.Fatalf("%d todos", len(todos))
		}
		if len(todos[0].Content) > maxTodoBytes+len("…") || !utf8.ValidString(todos[0].Content) {
			t.Fatalf("item of %d bytes, valid %v", len(todos[0].Content), utf8.ValidString(todos[0].Content))
		}
	})
}

func FuzzTodos(f *testing.F) {
	f.Add(aPlan)
	f.Add("# x\n1) \n- [ ] \n")
	f.Fuzz(func(t *testing.T, plan string) {
		todos := Todos(plan)
		if len(todos) > maxTodos {
			t.Fatalf("%d todos", len(todos))
		}
		for _, td := range todos {
			if td.Content == "" || td.Status != "pending" || utf8.ValidString(plan) && !utf8.ValidString(td.Content) {
				t.Fatalf("%+v", td)
			}
		}
	})
}

func TestRestore(t *testing.T) {
	ev := func(seq int64, typ string, data any) session.Event {
		b, _ := json.Marshal(data)
		return session.Event{Seq: seq, Type: typ, Data: b}
	}
	on := ev(0, session.TypePlanMode, session.PlanMode{Active: true, By: ByUser})
	off := ev(1, session.TypePlanMode, session.PlanMode{Active: false, By: ByApproval})
	other := ev(2, session.TypeTurnStart, session.TurnStart{Turn: 1})
	for _, c := range []struct {
		name   string
		events []session.Event
		def    bool
		want   bool
	}{
		{"no event keeps the default", []session.Event{other}, true, true},
		{"the last event wins", []session.Event{on, off, other}, true, false},
		{"a switch on is restored", []session.Event{off, on}, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Restore(c.events, c.def)
			if err != nil || got != c.want {
				t.Fatalf("%v %v", got, err)
			}
		})
	}
	if _, err := Restore([]session.Event{{Type: session.TypePlanMode, Data: json.RawMessage(`[]`)}}, false); err == nil {
		t.Fatal("a broken plan/mode event was accepted")
	}
}

func TestSectionIsInThePlanPolicyBandAndNeverChanges(t *testing.T) {
	s := Section()
	if s.Order != prompt.OrderPlanPolicy || s.Name != SectionName || !strings.Contains(s.Text, ExitName) {
		t.Fatalf("%+v", s)
	}
	if Section() != s {
		t.Fatal("the section is not stable")
	}
}
