package toolbox

import (
	"context"
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
