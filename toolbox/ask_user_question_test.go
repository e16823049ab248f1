package toolbox

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/toolstest"
)

func TestAskUserQuestion(t *testing.T) {
	t.Run("the question goes to the answerer", func(t *testing.T) {
		a := toolstest.Answer("use Postgres")
		res := runner(t, &tools.Env{Approvals: toolstest.Approvals(a)}).Dispatch(context.Background(), tools.Call{ID: "q1", Name: AskUserQuestionName,
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
		"with a headless answerer it fails closed": {Approvals: toolstest.Approvals(&toolstest.Answerer{Err: tools.ErrNoAnswerer})},
	} {
		t.Run(name, func(t *testing.T) {
			res := runner(t, env).Dispatch(context.Background(), tools.Call{Name: AskUserQuestionName, Raw: `{"question":"?"}`})
			if !res.IsError || !strings.Contains(res.Content, "no user is available") {
				t.Fatalf("%q", res.Content)
			}
		})
	}
	t.Run("other answerer errors are reported", func(t *testing.T) {
		res := runner(t, &tools.Env{Approvals: toolstest.Approvals(&toolstest.Answerer{Err: errors.New("tty closed")})}).Dispatch(context.Background(),
			tools.Call{Name: AskUserQuestionName, Raw: `{"question":"?"}`})
		if !res.IsError || res.Content != "Error: tty closed" {
			t.Fatalf("%q", res.Content)
		}
	})
}
