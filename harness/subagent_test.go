package harness_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

func sub(prompt string, extra map[string]any) map[string]any {
	args := map[string]any{"description": "helper", "prompt": prompt}
	for k, v := range extra {
		args[k] = v
	}
	return call("subagent", args)
}

func TestASubagentIsItsOwnSessionAndOnlyItsAnswerComesBack(t *testing.T) {
	home, ws := agenticHome(t)
	model := script(t, map[string]any{
		"replies": []any{sub("count the words in notes.txt", nil), text("the child says 42")},
		"agents": []any{map[string]any{"match": "count the words", "replies": []any{
			call("get_goal", map[string]any{}), text("42 words"),
		}}},
	})
	s := openAgentic(t, home, ws, model, nil)
	defer s.Close()
	out, err := s.Run(context.Background(), "how long are the notes?")
	if err != nil || out.Text != "the child says 42" {
		t.Fatalf("%+v %v", out, err)
	}
	res := sessiontest.DataOf[session.ToolResult](t, s.Events(), session.TypeToolResult)
	if len(res) != 1 || res[0].IsError || res[0].Content[0].Text != "42 words" {
		t.Fatalf("the parent must get the child's final answer alone: %+v", res)
	}
	starts := sessiontest.DataOf[session.SubagentStart](t, s.Events(), session.TypeSubagentStart)
	ends := sessiontest.DataOf[session.SubagentEnd](t, s.Events(), session.TypeSubagentEnd)
	if len(starts) != 1 || len(ends) != 1 || ends[0].Status != "completed" || ends[0].Child != starts[0].Child || starts[0].Depth != 1 {
		t.Fatalf("%+v %+v", starts, ends)
	}
	ld, err := home.Catalog().Load(context.Background(), starts[0].Child)
	if err != nil {
		t.Fatal(err)
	}
	h := ld.Header
	if h.Parent != s.ID() || h.ParentCall != starts[0].CallID || h.Depth != 1 || h.Workspace != ws || h.Approval != "never" {
		t.Fatalf("child header %+v", h)
	}
	if got := sessiontest.DataOf[session.ToolCall](t, ld.Events, session.TypeToolCall); len(got) != 1 || got[0].Name != "get_goal" {
		t.Fatalf("the child's own log: %+v", got)
	}
	kids, err := home.Children(context.Background(), s.ID())
	if err != nil || len(kids) != 1 || kids[0].Header.ID != starts[0].Child {
		t.Fatalf("children %+v %v", kids, err)
	}
}

func TestSubagentsNestThreeDeepAndNoFurther(t *testing.T) {
	home, ws := agenticHome(t)
	lane := func(match, next, answer string) map[string]any {
		replies := []any{text(answer)}
		if next != "" {
			replies = []any{sub(next, nil), text(answer)}
		}
		return map[string]any{"match": match, "replies": replies}
	}
	model := script(t, map[string]any{
		"replies": []any{sub("go to level one", nil), text("root done")},
		"agents": []any{
			lane("level one", "go to level two", "one done"),
			lane("level two", "go to level three", "two done"),
			lane("level three", "go to level four", "three saw the limit"),
			lane("level four", "", "this lane must never run"),
		},
	})
	s := openAgentic(t, home, ws, model, nil)
	defer s.Close()
	if out, err := s.Run(context.Background(), "nest"); err != nil || out.Text != "root done" {
		t.Fatalf("%+v %v", out, err)
	}
	all, err := home.Catalog().List(context.Background(), session.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	depth := map[int]string{}
	for _, sm := range all {
		depth[sm.Header.Depth] = sm.Header.ID
	}
	if len(all) != 4 || depth[3] == "" {
		t.Fatalf("want sessions at depths 0-3, got %d: %v", len(all), depth)
	}
	ld, err := home.Catalog().Load(context.Background(), depth[3])
	if err != nil {
		t.Fatal(err)
	}
	res := sessiontest.DataOf[session.ToolResult](t, ld.Events, session.TypeToolResult)
	if len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].Content[0].Text, "at most 3 deep") {
		t.Fatalf("depth 4 must be refused: %+v", res)
	}
}

func TestABackgroundSubagentIsAnnouncedAndSettleWaitsForIt(t *testing.T) {
	home, ws := agenticHome(t)
	model := script(t, map[string]any{
		"replies": []any{
			sub("summarise the changelog", map[string]any{"run_in_background": true}),
			text("started it"),
			call("agent_list", map[string]any{}),
			text("read the notice"),
		},
		"agents": []any{map[string]any{"match": "summarise the changelog", "replies": []any{
			map[string]any{"text": "three releases", "delay_ms": 40},
		}}},
	})
	s := openAgentic(t, home, ws, model, nil)
	defer s.Close()
	ctx := context.Background()
	out, err := s.Run(ctx, "summarise it in the background")
	if err != nil || out.Text != "started it" {
		t.Fatalf("%+v %v", out, err)
	}
	res := sessiontest.DataOf[session.ToolResult](t, s.Events(), session.TypeToolResult)
	if !strings.Contains(res[0].Content[0].Text, "running in the background") {
		t.Fatalf("%q", res[0].Content[0].Text)
	}
	out, ran, err := s.Settle(ctx)
	if err != nil || !ran || out.Text != "read the notice" {
		t.Fatalf("settle: %+v ran=%v %v", out, ran, err)
	}
	msgs := sessiontest.DataOf[session.UserMessage](t, s.Events(), session.TypeUserMessage)
	last := msgs[len(msgs)-1]
	if last.Source.Name != "subagent" || !strings.Contains(last.Content[0].Text, "finished: completed") {
		t.Fatalf("notice %+v", last)
	}
	res = sessiontest.DataOf[session.ToolResult](t, s.Events(), session.TypeToolResult)
	if list := res[len(res)-1].Content[0].Text; !strings.Contains(list, "completed") || !strings.Contains(list, "(background)") {
		t.Fatalf("agent_list: %q", list)
	}
}

func TestAPlanningParentGivesItsChildrenAReadOnlySandbox(t *testing.T) {
	home, ws := agenticHome(t)
	model := script(t, map[string]any{
		"replies": []any{sub("look around", nil), text("ok")},
		"agents":  []any{map[string]any{"match": "look around", "replies": []any{text("seen")}}},
	})
	on := true
	s := openAgentic(t, home, ws, model, func(o *harness.Options) { o.Plan = &on })
	defer s.Close()
	if _, err := s.Run(context.Background(), "plan"); err != nil {
		t.Fatal(err)
	}
	kids, err := home.Children(context.Background(), s.ID())
	if err != nil || len(kids) != 1 || kids[0].Settings.Sandbox != "read-only" {
		t.Fatalf("%+v %v", kids, err)
	}
}

func TestSubagentsOfOneStepRunConcurrently(t *testing.T) {
	home, ws := agenticHome(t)
	var cs []map[string]any
	var lanes []any
	for _, n := range []string{"one", "two", "three"} {
		cs = append(cs, map[string]any{"name": "subagent", "arguments": map[string]any{"description": n, "prompt": "task " + n}})
		lanes = append(lanes, map[string]any{"match": "task " + n, "replies": []any{map[string]any{"text": "answer " + n, "delay_ms": 300}}})
	}
	model := script(t, map[string]any{"replies": []any{map[string]any{"tool_calls": cs}, text("merged")}, "agents": lanes})
	s := openAgentic(t, home, ws, model, nil)
	defer s.Close()
	if out, err := s.Run(context.Background(), "fan out"); err != nil || out.Text != "merged" {
		t.Fatalf("%+v %v", out, err)
	}
	res := sessiontest.DataOf[session.ToolResult](t, s.Events(), session.TypeToolResult)
	for i, n := range []string{"one", "two", "three"} {
		if res[i].Content[0].Text != "answer "+n {
			t.Fatalf("result %d: %+v", i, res[i])
		}
	}
	// All three started before any ended: they ran at the same time.
	var seq []string
	for _, e := range s.Events() {
		if e.Type == session.TypeSubagentStart || e.Type == session.TypeSubagentEnd {
			seq = append(seq, e.Type)
		}
	}
	if strings.Join(seq[:3], ",") != strings.Repeat(session.TypeSubagentStart+",", 2)+session.TypeSubagentStart {
		t.Fatalf("%v", seq)
	}
}
