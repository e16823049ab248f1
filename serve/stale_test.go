package serve

import (
	"encoding/json"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

func ev(typ string, data any) session.Event {
	b, _ := json.Marshal(data)
	return session.Event{Type: typ, Data: b}
}

func TestStaleRequests(t *testing.T) {
	start := ev(session.TypeTurnStart, session.TurnStart{Turn: 1})
	asked := ev(session.TypeApprovalAsked, session.ApprovalAsked{ID: "r1", Kind: "approval", CallID: "c1", Name: "bash", Arguments: `{"command":"ls"}`})
	decided := ev(session.TypeApprovalDecided, session.ApprovalDecided{ID: "r1", CallID: "c1", Decision: "deny", By: "policy"})
	question := ev(session.TypeApprovalAsked, session.ApprovalAsked{ID: "r2", Kind: "question", CallID: "r:ptc:0", Name: "ask_user_question", Text: "Which?", Options: []string{"a", "b"}})
	plan := ev(session.TypeApprovalAsked, session.ApprovalAsked{ID: "r3", Kind: "plan", CallID: "p1", Name: "exit_plan_mode", Text: "1. do it"})
	end := ev(session.TypeTurnEnd, session.TurnEnd{Turn: 1, Reason: "interrupted"})
	cases := []struct {
		name   string
		events []session.Event
		want   []string // id/kind
	}{
		{"an approval asked and never decided is pending", []session.Event{start, asked}, []string{"r1/approval"}},
		{"a decided one is not", []session.Event{start, asked, decided}, nil},
		{"a turn that ended has none", []session.Event{start, asked, end}, nil},
		{"a question is pending", []session.Event{start, question}, []string{"r2/question"}},
		{"a plan is pending", []session.Event{start, plan}, []string{"r3/plan"}},
		{"all of them, in order", []session.Event{start, plan, asked, question}, []string{"r3/plan", "r1/approval", "r2/question"}},
		{"an earlier turn's requests are not", []session.Event{start, asked, end, start}, nil},
		{"a log without a turn has none", []session.Event{asked}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := staleRequests(c.events, "/ws", "workspace-write")
			var ids []string
			for _, p := range got {
				if !p.Stale || p.Title == "" {
					t.Errorf("%+v is not marked stale or has no title", p)
				}
				ids = append(ids, p.ID+"/"+p.Kind)
			}
			if len(ids) != len(c.want) {
				t.Fatalf("got %v, want %v", ids, c.want)
			}
			for i := range ids {
				if ids[i] != c.want[i] {
					t.Fatalf("got %v, want %v", ids, c.want)
				}
			}
		})
	}
	q := staleRequests([]session.Event{start, question}, "/ws", "")
	if len(q) != 1 || q[0].Text != "Which?" || len(q[0].Options) != 2 {
		t.Fatalf("question %+v", q)
	}
}
