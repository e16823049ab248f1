package plan

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/toolstest"
)

const aPlan = "# Fix the parser\n\nThe parser drops trailing commas.\n\n1. Read parse.go and its tests\n2. [ ] Add a failing test\n- Fix `parseList` in parse.go\n"

func dispatch(t *testing.T, m *Mode, env *tools.Env, raw string, stopped *bool) tools.Result {
	t.Helper()
	reg, err := tools.NewRegistry(tools.PresentNative, Exit(m, ExitOptions{NoUser: func() { *stopped = true }}))
	if err != nil {
		t.Fatal(err)
	}
	return tools.NewRunner(reg, tools.RunnerConfig{Env: env}).Dispatch(context.Background(), tools.Call{ID: "p1", Name: ExitName, Raw: raw})
}

func planArgs(p string) string {
	b, _ := json.Marshal(ExitInput{Plan: p})
	return string(b)
}

func TestExitPlanMode(t *testing.T) {
	t.Run("approving turns plan mode off and keeps the plan as the todo list", func(t *testing.T) {
		m, s, a, stopped := New(true), &toolstest.Sink{}, toolstest.Answer(tools.AnswerApprovePlan), false
		res := dispatch(t, m, &tools.Env{Sink: s, Answerer: a}, planArgs(aPlan), &stopped)
		if res.IsError || !strings.Contains(res.Content, "approved") || !strings.Contains(res.Content, "3 steps") {
			t.Fatalf("%q", res.Content)
		}
		if m.Active() || m.ReadOnly() != "" {
			t.Fatal("plan mode is still on")
		}
		if len(a.Asked()) != 1 || a.Asked()[0].Kind != tools.KindPlan || a.Asked()[0].Text != aPlan || a.Asked()[0].CallID != "p1" {
			t.Fatalf("question %+v", a.Asked())
		}
		if !reflect.DeepEqual(s.Types(), []string{session.TypePlanMode, session.TypeTodoWrite}) {
			t.Fatalf("events %v", s.Types())
		}
		if pm := s.Data()[0].(session.PlanMode); pm.Active || pm.By != ByApproval || pm.Plan != aPlan || pm.CallID != "p1" {
			t.Fatalf("%+v", pm)
		}
		todos := s.Data()[1].(session.TodoWrite).Todos
		want := []string{"Read parse.go and its tests", "Add a failing test", "Fix `parseList` in parse.go"}
		for i, td := range todos {
			if td.Content != want[i] || td.Status != "pending" {
				t.Fatalf("todo %d: %+v", i, td)
			}
		}
	})
	t.Run("keep planning fails the call with the user's feedback", func(t *testing.T) {
		m, s, stopped := New(true), &toolstest.Sink{}, false
		res := dispatch(t, m, &tools.Env{Sink: s, Answerer: toolstest.Answer("also cover the lexer")}, planArgs(aPlan), &stopped)
		if !res.IsError || !strings.Contains(res.Content, "also cover the lexer") || !strings.Contains(res.Content, "keep planning") {
			t.Fatalf("%q", res.Content)
		}
		if !m.Active() || len(s.Types()) != 0 {
			t.Fatalf("plan mode on %v, events %v", m.Active(), s.Types())
		}
	})
	t.Run("without anybody to ask the run stops and plan mode stays on", func(t *testing.T) {
		for name, env := range map[string]*tools.Env{"no answerer": {}, "a headless answerer": {Answerer: &toolstest.Answerer{Err: tools.ErrNoAnswerer}}} {
			m, stopped := New(true), false
			res := dispatch(t, m, env, planArgs(aPlan), &stopped)
			if res.IsError || !stopped || !m.Active() || !strings.Contains(res.Content, "stops") {
				t.Fatalf("%s: stopped %v, on %v, %q", name, stopped, m.Active(), res.Content)
			}
		}
	})
	t.Run("under --approve-plan the plan is approved without asking", func(t *testing.T) {
		m, s, a := New(true), &toolstest.Sink{}, &toolstest.Answerer{Err: tools.ErrNoAnswerer}
		reg, _ := tools.NewRegistry(tools.PresentNative, Exit(m, ExitOptions{Approve: true}))
		res := tools.NewRunner(reg, tools.RunnerConfig{Env: &tools.Env{Sink: s, Answerer: a}}).Dispatch(context.Background(),
			tools.Call{ID: "p1", Name: ExitName, Raw: planArgs(aPlan)})
		if res.IsError || m.Active() || len(a.Asked()) != 0 || len(s.Types()) != 2 {
			t.Fatalf("%q on=%v asked=%d events=%v", res.Content, m.Active(), len(a.Asked()), s.Types())
		}
	})
	t.Run("outside plan mode the call fails and asks nobody", func(t *testing.T) {
		a, stopped := toolstest.Answer(tools.AnswerApprovePlan), false
		res := dispatch(t, New(false), &tools.Env{Answerer: a}, planArgs(aPlan), &stopped)
		if !res.IsError || !strings.Contains(res.Content, "plan mode is not on") || len(a.Asked()) != 0 {
			t.Fatalf("%q", res.Content)
		}
	})
	t.Run("a plan that does not start with a heading is invalid", func(t *testing.T) {
		stopped := false
		res := dispatch(t, New(true), &tools.Env{}, planArgs("1. do it"), &stopped)
		if !res.IsError || res.Error.Code != tools.CodeInvalidArgs || !strings.Contains(res.Content, "/plan") {
			t.Fatalf("%q", res.Content)
		}
	})
	t.Run("it declares a schema its Go types match", func(t *testing.T) {
		spec := Exit(New(false), ExitOptions{}).Spec()
		for name, err := range map[string]error{"input": tools.SchemaMatchesStruct[ExitInput](spec.InputSchema), "output": tools.SchemaMatchesStruct[ExitOutput](spec.OutputSchema)} {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	})
}

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
