package builtin

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/toolstest"
)

func runner(t *testing.T, env *tools.Env) *tools.Runner {
	t.Helper()
	reg, err := tools.NewRegistry(tools.PresentNative, TodoWrite(), AskUserQuestion(), Noop())
	if err != nil {
		t.Fatal(err)
	}
	return tools.NewRunner(reg, tools.RunnerConfig{Env: env})
}

func TestSchemasMatchTheGoTypes(t *testing.T) {
	checks := map[string]error{
		"todo_write input":         tools.SchemaMatchesStruct[TodoList](TodoWrite().Spec().InputSchema),
		"ask_user_question input":  tools.SchemaMatchesStruct[AskInput](AskUserQuestion().Spec().InputSchema),
		"ask_user_question output": tools.SchemaMatchesStruct[AskOutput](AskUserQuestion().Spec().OutputSchema),
		"noop input":               tools.SchemaMatchesStruct[NoopInput](Noop().Spec().InputSchema),
	}
	for name, err := range checks {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestTodoWrite(t *testing.T) {
	t.Run("the whole list is replaced, logged and rendered", func(t *testing.T) {
		s := &toolstest.Sink{}
		raw := `{"todos":[{"content":"read the code","status":"completed"},{"content":"fix the bug","status":"in_progress","priority":"high"},{"content":"run tests","status":"pending"}]}`
		res := runner(t, &tools.Env{Sink: s}).Dispatch(context.Background(), tools.Call{ID: "c1", Name: TodoWriteName, Raw: raw})
		want := "Todo list updated:\n[x] read the code\n[~] fix the bug (high)\n[ ] run tests"
		if res.IsError || res.Content != want {
			t.Fatalf("%q", res.Content)
		}
		if !reflect.DeepEqual(s.Types(), []string{session.TypeTodoWrite}) {
			t.Fatalf("events %v", s.Types())
		}
		ev := s.Data()[0].(session.TodoWrite)
		if ev.CallID != "c1" || len(ev.Todos) != 3 || ev.Todos[1].Priority != "high" {
			t.Fatalf("%+v", ev)
		}
	})
	t.Run("an empty list clears", func(t *testing.T) {
		res := runner(t, nil).Dispatch(context.Background(), tools.Call{Name: TodoWriteName, Raw: `{"todos":[]}`})
		if res.Content != "Todo list cleared." {
			t.Fatalf("%q", res.Content)
		}
	})
	t.Run("a bad status is invalid arguments", func(t *testing.T) {
		res := runner(t, nil).Dispatch(context.Background(), tools.Call{Name: TodoWriteName, Raw: `{"todos":[{"content":"x","status":"done"}]}`})
		if !res.IsError || res.Error.Code != tools.CodeInvalidArgs || !strings.Contains(res.Content, "/todos/0/status") {
			t.Fatalf("%q", res.Content)
		}
	})
	t.Run("it is not concurrency-safe", func(t *testing.T) {
		if TodoWrite().ConcurrencySafe([]byte(`{"todos":[]}`)) {
			t.Fatal("todo_write claims to be safe")
		}
	})
}

func TestAskUserQuestion(t *testing.T) {
	t.Run("the question goes to the answerer", func(t *testing.T) {
		a := toolstest.Answer("use Postgres")
		res := runner(t, &tools.Env{Answerer: a}).Dispatch(context.Background(), tools.Call{ID: "q1", Name: AskUserQuestionName,
			Raw: `{"question":"Which database?","options":["Postgres","SQLite"]}`})
		if res.IsError || res.Content != "The user answered: use Postgres" {
			t.Fatalf("%q", res.Content)
		}
		if q := a.Asked(); len(q) != 1 || q[0].Kind != tools.KindQuestion || q[0].Text != "Which database?" || len(q[0].Options) != 2 || q[0].CallID != "q1" {
			t.Fatalf("%+v", q)
		}
	})
	for name, env := range map[string]*tools.Env{
		"without an answerer it fails closed":      {},
		"with a headless answerer it fails closed": {Answerer: &toolstest.Answerer{Err: tools.ErrNoAnswerer}},
	} {
		t.Run(name, func(t *testing.T) {
			res := runner(t, env).Dispatch(context.Background(), tools.Call{Name: AskUserQuestionName, Raw: `{"question":"?"}`})
			if !res.IsError || !strings.Contains(res.Content, "no user is available") {
				t.Fatalf("%q", res.Content)
			}
		})
	}
	t.Run("other answerer errors are reported", func(t *testing.T) {
		res := runner(t, &tools.Env{Answerer: &toolstest.Answerer{Err: errors.New("tty closed")}}).Dispatch(context.Background(),
			tools.Call{Name: AskUserQuestionName, Raw: `{"question":"?"}`})
		if !res.IsError || res.Content != "Error: tty closed" {
			t.Fatalf("%q", res.Content)
		}
	})
}
