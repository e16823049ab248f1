package toolbox

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/plan"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/toolstest"
)

const aPlan = "# Fix the parser\n\nThe parser drops trailing commas.\n\n1. Read parse.go and its tests\n2. [ ] Add a failing test\n- Fix `parseList` in parse.go\n"

func dispatch(t *testing.T, m *plan.Mode, env *tools.Env, raw string, stopped *bool) tools.Result {
	t.Helper()
	reg, err := tools.NewRegistry(tools.PresentNative, ExitPlanMode(m, ExitPlanOptions{NoUser: func() { *stopped = true }}))
	if err != nil {
		t.Fatal(err)
	}
	return tools.NewRunner(reg, tools.RunnerConfig{Env: env}).Dispatch(context.Background(), tools.Call{ID: "p1", Name: plan.ExitName, Raw: raw})
}

func planArgs(p string) string {
	b, _ := json.Marshal(ExitPlanInput{Plan: p})
	return string(b)
}

func TestExitPlanMode(t *testing.T) {
	t.Run("approving turns plan mode off and keeps the plan as the todo list", func(t *testing.T) {
		m, s, a, stopped := plan.New(true), &toolstest.Sink{}, toolstest.Answer(tools.AnswerApprovePlan), false
		res := dispatch(t, m, &tools.Env{Sink: s, Approvals: toolstest.Approvals(a)}, planArgs(aPlan), &stopped)
		if res.IsError || !strings.Contains(res.Content, "approved") || !strings.Contains(res.Content, "3 steps") {
			t.Fatalf("%q", res.Content)
		}
		if m.Active() || m.ReadOnly() != "" {
			t.Fatal("plan mode is still on")
		}
		if len(a.Asked()) != 1 || a.Asked()[0].Kind != tools.KindPlan || a.Asked()[0].Text != aPlan || a.Asked()[0].CallID != "p1" {
			t.Fatalf("question %+v", a.Asked())
		}
		if !reflect.DeepEqual(s.Types(), []string{session.TypeApprovalAsked, session.TypeApprovalDecided, session.TypePlanMode, session.TypeTodoWrite}) {
			t.Fatalf("events %v", s.Types())
		}
		if d := s.Data()[1].(session.ApprovalDecided); d.ID != s.Data()[0].(session.ApprovalAsked).ID || d.Answer != tools.AnswerApprovePlan {
			t.Fatalf("the plan's request is not closed by its answer: %+v", d)
		}
		if pm := s.Data()[2].(session.PlanMode); pm.Active || pm.By != plan.ByApproval || pm.Plan != aPlan || pm.CallID != "p1" {
			t.Fatalf("%+v", pm)
		}
		todos := s.Data()[3].(session.TodoWrite).Todos
		want := []string{"Read parse.go and its tests", "Add a failing test", "Fix `parseList` in parse.go"}
		for i, td := range todos {
			if td.Content != want[i] || td.Status != "pending" {
				t.Fatalf("todo %d: %+v", i, td)
			}
		}
	})
	t.Run("keep planning fails the call with the user's feedback", func(t *testing.T) {
		m, s, stopped := plan.New(true), &toolstest.Sink{}, false
		res := dispatch(t, m, &tools.Env{Sink: s, Approvals: toolstest.Approvals(toolstest.Answer("also cover the lexer"))}, planArgs(aPlan), &stopped)
		if !res.IsError || !strings.Contains(res.Content, "also cover the lexer") || !strings.Contains(res.Content, "keep planning") {
			t.Fatalf("%q", res.Content)
		}
		if !m.Active() || !reflect.DeepEqual(s.Types(), []string{session.TypeApprovalAsked, session.TypeApprovalDecided}) {
			t.Fatalf("plan mode on %v, events %v", m.Active(), s.Types())
		}
		if d := s.Data()[1].(session.ApprovalDecided); d.Decision != "answered" || d.Answer != "also cover the lexer" {
			t.Fatalf("decided %+v", d)
		}
	})
	t.Run("without anybody to ask the run stops and plan mode stays on", func(t *testing.T) {
		for name, env := range map[string]*tools.Env{"no answerer": {}, "a headless answerer": {Approvals: toolstest.Approvals(&toolstest.Answerer{Err: tools.ErrNoAnswerer})}} {
			m, stopped := plan.New(true), false
			res := dispatch(t, m, env, planArgs(aPlan), &stopped)
			if res.IsError || !stopped || !m.Active() || !strings.Contains(res.Content, "stops") {
				t.Fatalf("%s: stopped %v, on %v, %q", name, stopped, m.Active(), res.Content)
			}
		}
	})
	t.Run("under --approve-plan the plan is approved without asking", func(t *testing.T) {
		m, s, a := plan.New(true), &toolstest.Sink{}, &toolstest.Answerer{Err: tools.ErrNoAnswerer}
		reg, _ := tools.NewRegistry(tools.PresentNative, ExitPlanMode(m, ExitPlanOptions{Approve: true}))
		res := tools.NewRunner(reg, tools.RunnerConfig{Env: &tools.Env{Sink: s, Approvals: toolstest.Approvals(a)}}).Dispatch(context.Background(),
			tools.Call{ID: "p1", Name: plan.ExitName, Raw: planArgs(aPlan)})
		if res.IsError || m.Active() || len(a.Asked()) != 0 || len(s.Types()) != 2 {
			t.Fatalf("%q on=%v asked=%d events=%v", res.Content, m.Active(), len(a.Asked()), s.Types())
		}
	})
	t.Run("outside plan mode the call fails and asks nobody", func(t *testing.T) {
		a, stopped := toolstest.Answer(tools.AnswerApprovePlan), false
		res := dispatch(t, plan.New(false), &tools.Env{Approvals: toolstest.Approvals(a)}, planArgs(aPlan), &stopped)
		if !res.IsError || !strings.Contains(res.Content, "plan mode is not on") || len(a.Asked()) != 0 {
			t.Fatalf("%q", res.Content)
		}
	})
	t.Run("a plan that does not start with a heading is invalid", func(t *testing.T) {
		stopped := false
		res := dispatch(t, plan.New(true), &tools.Env{}, planArgs("1. do it"), &stopped)
		if !res.IsError || res.Error.Code != tools.CodeInvalidArgs || !strings.Contains(res.Content, "/plan") {
			t.Fatalf("%q", res.Content)
		}
	})
}
