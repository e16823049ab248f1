package session_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// brief is a compact, comparable view of a planned event.
type brief struct {
	Type   string
	CallID string
	Code   string
	Reason string
	Step   int
}

func briefOf(p session.Pending) brief {
	switch d := p.Data.(type) {
	case session.ToolResult:
		return brief{Type: p.Type, CallID: d.CallID, Code: d.Error.Code, Step: d.Step}
	case session.StepMark:
		return brief{Type: p.Type, Step: d.Step}
	case session.TurnEnd:
		return brief{Type: p.Type, Reason: d.Reason}
	}
	return brief{Type: p.Type}
}

func TestRepair(t *testing.T) {
	c1 := llm.ToolCall{ID: "c1", Name: "bash", Arguments: `{"command":"make"}`}
	c2 := llm.ToolCall{ID: "c2", Name: "write", Arguments: `{}`}
	c3 := llm.ToolCall{ID: "c3", Name: "read", Arguments: `{}`}
	stepEnd := brief{Type: session.TypeStepEnd, Step: 1}
	interrupted := brief{Type: session.TypeTurnEnd, Reason: session.ReasonInterrupted}
	cases := []struct {
		name     string
		build    func(s *script)
		want     []brief
		lastTurn int
	}{
		{name: "an empty log needs nothing", build: func(s *script) {}},
		{name: "a clean log needs nothing", lastTurn: 2,
			build: func(s *script) { s.completeTurn(1).completeTurn(2) }},
		{name: "killed mid-stream closes the step and the turn", lastTurn: 2,
			build: func(s *script) { s.completeTurn(1).turnStart(2).stepStart(2, 1).user("q").chunk(2, 1, "hal") },
			want:  []brief{stepEnd, interrupted}},
		{name: "killed mid-tool marks the recorded call's outcome unknown", lastTurn: 1,
			build: func(s *script) {
				s.turnStart(1).stepStart(1, 1).user("q").assistant(1, 1, "", c1).call(1, 1, "c1", "bash")
			},
			want: []brief{{Type: session.TypeToolResult, CallID: "c1", Code: "TOOL_OUTCOME_UNKNOWN", Step: 1}, stepEnd, interrupted}},
		{name: "killed between calls of a multi-call step keeps results and marks the rest", lastTurn: 1,
			build: func(s *script) {
				s.turnStart(1).stepStart(1, 1).user("q").assistant(1, 1, "", c1, c2, c3).
					call(1, 1, "c1", "bash").result(1, 1, "c1", "bash", "ok").call(1, 1, "c2", "write")
			},
			want: []brief{
				{Type: session.TypeToolResult, CallID: "c2", Code: "TOOL_OUTCOME_UNKNOWN", Step: 1},
				{Type: session.TypeToolResult, CallID: "c3", Code: "TOOL_NOT_STARTED", Step: 1},
				stepEnd, interrupted}},
		{name: "killed before any call started marks them all not started", lastTurn: 1,
			build: func(s *script) { s.turnStart(1).stepStart(1, 1).user("q").assistant(1, 1, "", c1, c2) },
			want: []brief{
				{Type: session.TypeToolResult, CallID: "c1", Code: "TOOL_NOT_STARTED", Step: 1},
				{Type: session.TypeToolResult, CallID: "c2", Code: "TOOL_NOT_STARTED", Step: 1},
				stepEnd, interrupted}},
		{name: "killed after step/end only ends the turn", lastTurn: 1,
			build: func(s *script) {
				s.turnStart(1).stepStart(1, 1).user("q").assistant(1, 1, "", c1).call(1, 1, "c1", "bash").
					result(1, 1, "c1", "bash", "ok").stepEnd(1, 1)
			},
			want: []brief{interrupted}},
		{name: "repeated call ids still get exactly one result each, by position", lastTurn: 1,
			build: func(s *script) {
				dup := llm.ToolCall{ID: "same", Name: "bash", Arguments: `{}`}
				s.turnStart(1).stepStart(1, 1).user("q").assistant(1, 1, "", dup, dup, dup).
					call(1, 1, "same", "bash").result(1, 1, "same", "bash", "ok").call(1, 1, "same", "bash")
			},
			want: []brief{
				{Type: session.TypeToolResult, CallID: "same", Code: "TOOL_OUTCOME_UNKNOWN", Step: 1},
				{Type: session.TypeToolResult, CallID: "same", Code: "TOOL_NOT_STARTED", Step: 1},
				stepEnd, interrupted}},
		{name: "empty call ids are paired by position too", lastTurn: 1,
			build: func(s *script) {
				e := llm.ToolCall{Name: "read", Arguments: `{}`}
				s.turnStart(1).stepStart(1, 1).user("q").assistant(1, 1, "", e, e).call(1, 1, "", "read")
			},
			want: []brief{
				{Type: session.TypeToolResult, Code: "TOOL_OUTCOME_UNKNOWN", Step: 1},
				{Type: session.TypeToolResult, Code: "TOOL_NOT_STARTED", Step: 1},
				stepEnd, interrupted}},
		{name: "a call killed while waiting for its approval did not start; an approved one may have run", lastTurn: 1,
			build: func(s *script) {
				s.turnStart(1).stepStart(1, 1).user("q").assistant(1, 1, "", c1, c2).
					call(1, 1, "c1", "bash").add(session.TypeApprovalAsked, session.ApprovalAsked{ID: "r1", CallID: "c1", Name: "bash"}).
					add(session.TypeApprovalDecided, session.ApprovalDecided{ID: "r1", CallID: "c1", Name: "bash", Decision: "allow-once", By: "user"}).
					result(1, 1, "c1", "bash", "ok").
					call(1, 1, "c2", "write").add(session.TypeApprovalAsked, session.ApprovalAsked{ID: "r2", CallID: "c2", Name: "write"})
			},
			want: []brief{{Type: session.TypeToolResult, CallID: "c2", Code: "TOOL_NOT_STARTED", Step: 1}, stepEnd, interrupted}},
		{name: "a call whose approval was answered before the kill may have run", lastTurn: 1,
			build: func(s *script) {
				s.turnStart(1).stepStart(1, 1).user("q").assistant(1, 1, "", c1).
					call(1, 1, "c1", "bash").add(session.TypeApprovalAsked, session.ApprovalAsked{ID: "r1", CallID: "c1", Name: "bash"}).
					add(session.TypeApprovalDecided, session.ApprovalDecided{ID: "r1", CallID: "c1", Name: "bash", Decision: "allow-once", By: "user"})
			},
			want: []brief{{Type: session.TypeToolResult, CallID: "c1", Code: "TOOL_OUTCOME_UNKNOWN", Step: 1}, stepEnd, interrupted}},
		{name: "calls of an earlier step do not leak into the open one", lastTurn: 1,
			build: func(s *script) {
				s.turnStart(1).stepStart(1, 1).user("q").assistant(1, 1, "", c1).call(1, 1, "c1", "bash").
					result(1, 1, "c1", "bash", "ok").stepEnd(1, 1).stepStart(1, 2).chunk(1, 2, "x")
			},
			want: []brief{{Type: session.TypeStepEnd, Step: 2}, interrupted}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &script{t: t}
			c.build(s)
			plan, err := session.Repair(s.events)
			must(t, err)
			var got []brief
			for _, p := range plan.Events {
				got = append(got, briefOf(p))
			}
			if !reflect.DeepEqual(got, c.want) || plan.LastTurn != c.lastTurn {
				t.Fatalf("plan = %+v (last turn %d)\nwant %+v (last turn %d)", got, plan.LastTurn, c.want, c.lastTurn)
			}
		})
	}
}

func TestRepairedResultsTellTheModelWhatHappened(t *testing.T) {
	s := (&script{t: t}).turnStart(3).stepStart(3, 2).
		assistant(3, 2, "", llm.ToolCall{ID: "c1", Name: "bash"}).call(3, 2, "c1", "bash")
	plan, err := session.Repair(s.events)
	must(t, err)
	r := plan.Events[0].Data.(session.ToolResult)
	if !r.IsError || r.Turn != 3 || r.Step != 2 || r.Name != "bash" || r.Error == nil ||
		r.Content[0].Text != "Error: "+r.Error.Message || !strings.Contains(r.Error.Message, "before retrying anything with side effects") {
		t.Fatalf("synthetic result = %+v", r)
	}
}

func TestLogRepairAppendsDurablyAndTheProjectionStaysValid(t *testing.T) {
	ctx := context.Background()
	store := session.NewMemStore()
	s := (&script{t: t}).completeTurn(1).turnStart(2).stepStart(2, 1).user("q").
		assistant(2, 1, "", llm.ToolCall{ID: "c9", Name: "bash"}).call(2, 1, "c9", "bash")
	storeWith(t, store, "s", s.events)
	log, err := session.Open(ctx, store, "s", session.LogOptions{})
	must(t, err)
	plan, err := log.Repair(ctx)
	must(t, err)
	if plan.LastTurn != 2 || len(plan.Events) != 3 {
		t.Fatalf("plan = %+v", plan)
	}
	stored, err := store.Load(ctx, "s")
	must(t, err)
	if len(stored) != len(s.events)+3 || stored[len(stored)-1].Type != session.TypeTurnEnd {
		t.Fatalf("store has %d events, want %d ending with turn/end", len(stored), len(s.events)+3)
	}
	var end session.TurnEnd
	must(t, json.Unmarshal(stored[len(stored)-1].Data, &end))
	if end.Reason != session.ReasonInterrupted || end.Turn != 2 {
		t.Fatalf("turn/end = %+v", end)
	}
	msgs, err := session.DeriveMessages(stored)
	must(t, err)
	last := msgs[len(msgs)-1]
	if last.Role != llm.RoleTool || last.ToolCallID != "c9" {
		t.Fatalf("last message = %+v, want the synthetic tool result for c9", last)
	}
	again, err := session.Open(ctx, store, "s", session.LogOptions{})
	must(t, err)
	if plan, err := again.Repair(ctx); err != nil || len(plan.Events) != 0 {
		t.Fatalf("repairing a repaired log: plan %+v, err %v; want nothing", plan, err)
	}
}
