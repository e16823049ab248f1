package harness_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/toolstest"
)

// agenticPreset lists the session's own tools and no sandbox tool, so
// these tests need no guest.
const agenticPreset = `id: agentic
description: The session's own tools only.
persona: You test in {{cwd}}.
tools: [create_goal, get_goal, update_goal, subagent, agent_output, agent_list, agent_stop, exit_plan_mode, todo_write]
presentation: native
snapshots: false
max_steps: 20
`

// agenticHome is a home with the agentic preset and a workspace.
func agenticHome(t *testing.T) (*harness.Home, string) {
	t.Helper()
	home := newHome(t)
	if err := os.MkdirAll(filepath.Join(home.Dir(), "presets"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home.Dir(), "presets", "agentic.yaml"), []byte(agenticPreset), 0o600); err != nil {
		t.Fatal(err)
	}
	return home, t.TempDir()
}

// script writes a scripted model file and returns its path.
func script(t *testing.T, body map[string]any) string {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "model.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func text(s string) map[string]any { return map[string]any{"text": s} }

func call(name string, args map[string]any) map[string]any {
	return map[string]any{"tool_calls": []map[string]any{{"name": name, "arguments": args}}}
}

func openAgentic(t *testing.T, home *harness.Home, ws, model string, mut func(*harness.Options)) *harness.Session {
	t.Helper()
	opts := harness.Options{Settings: session.Settings{Preset: "agentic", Model: "script:" + model, Workspace: ws, Approval: "never"}}
	if mut != nil {
		mut(&opts)
	}
	s, err := harness.Open(context.Background(), home, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAGoalRunsRoundsUntilTheAgentCompletesIt(t *testing.T) {
	home, ws := agenticHome(t)
	model := script(t, map[string]any{"replies": []any{
		text("round one: read the code"),
		text("round two: fixed half"),
		call("update_goal", map[string]any{"goal_id": "goal-1", "revision": 1, "action": "complete"}),
		text("all done"),
	}})
	s := openAgentic(t, home, ws, model, nil)
	defer s.Close()
	ctx := context.Background()
	if _, err := s.SetGoal(ctx, "make the tests pass", 10); err != nil {
		t.Fatal(err)
	}
	out, err := s.RunGoal(ctx)
	if err != nil || out.Reason != session.ReasonCompleted || out.Text != "all done" {
		t.Fatalf("%+v %v", out, err)
	}
	g, _ := s.Goal()
	if g.Status != session.GoalComplete || g.Rounds != 3 {
		t.Fatalf("%+v", g)
	}
	rounds := sessiontest.DataOf[session.GoalRound](t, s.Events(), session.TypeGoalRound)
	if len(rounds) != 3 || rounds[2].Round != 3 || rounds[2].MaxRounds != 10 {
		t.Fatalf("rounds %+v", rounds)
	}
	msgs := sessiontest.DataOf[session.UserMessage](t, s.Events(), session.TypeUserMessage)
	if len(msgs) != 3 || msgs[0].Source.Name != "goal" || !strings.Contains(msgs[1].Content[0].Text, "round 2 of 10") || !strings.Contains(msgs[1].Content[0].Text, "make the tests pass") {
		t.Fatalf("round prompts %+v", msgs)
	}
}

func TestTheRoundCapEndsAGoalAndAResumedSessionContinuesOne(t *testing.T) {
	home, ws := agenticHome(t)
	ctx := context.Background()
	model := script(t, map[string]any{"replies": []any{text("r1"), text("r2")}})
	s := openAgentic(t, home, ws, model, nil)
	if _, err := s.SetGoal(ctx, "refactor the parser", 4); err != nil {
		t.Fatal(err)
	}
	// The script runs out in round 3: the turn fails and the rounds stop,
	// the goal still active, as after a crash.
	out, err := s.RunGoal(ctx)
	if err != nil || out.Reason != session.ReasonError {
		t.Fatalf("%+v %v", out, err)
	}
	id := s.ID()
	must(t, s.Close())

	more := script(t, map[string]any{"replies": []any{text("r4")}})
	r := openAgentic(t, home, ws, more, func(o *harness.Options) {
		o.Resume, o.Settings, o.Override = id, session.Settings{Model: "script:" + more}, []session.Field{session.FieldModel}
	})
	defer r.Close()
	if g, ok := r.Goal(); !ok || g.Status != session.GoalActive || g.Rounds != 3 {
		t.Fatalf("the resumed session's goal: %+v", g)
	}
	out, err = r.RunGoal(ctx)
	if err != nil || out.Text != "r4" {
		t.Fatalf("%+v %v", out, err)
	}
	g, _ := r.Goal()
	if g.Status != session.GoalMaxRounds || g.Rounds != 4 {
		t.Fatalf("%+v", g)
	}
	ups := sessiontest.DataOf[session.GoalChange](t, r.Events(), session.TypeGoalUpdate)
	if last := ups[len(ups)-1]; last.Action != "max-rounds" || last.By != "runtime" {
		t.Fatalf("%+v", last)
	}
}

func TestAGoalRoundCannotRaiseItsCapNorResumeAPausedGoal(t *testing.T) {
	home, ws := agenticHome(t)
	ctx := context.Background()
	model := script(t, map[string]any{"replies": []any{
		map[string]any{"tool_calls": []map[string]any{
			{"name": "update_goal", "arguments": map[string]any{"goal_id": "goal-1", "revision": 1, "action": "edit", "max_rounds": 100}},
			{"name": "update_goal", "arguments": map[string]any{"goal_id": "goal-1", "revision": 1, "action": "resume"}},
			{"name": "create_goal", "arguments": map[string]any{"objective": "something bigger"}},
		}},
		text("ok, I keep to the goal"),
	}})
	s := openAgentic(t, home, ws, model, nil)
	defer s.Close()
	if _, err := s.SetGoal(ctx, "tidy the docs", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RunGoal(ctx); err != nil {
		t.Fatal(err)
	}
	results := sessiontest.DataOf[session.ToolResult](t, s.Events(), session.TypeToolResult)
	if len(results) != 3 {
		t.Fatalf("%d results", len(results))
	}
	for _, r := range results {
		if !r.IsError || r.Error.Code != tools.CodeDenied || !strings.Contains(r.Content[0].Text, "goal round cannot") {
			t.Fatalf("%s: %+v", r.Name, r.Content)
		}
	}
	if g, _ := s.Goal(); g.MaxRounds != 1 || g.Revision != 2 || g.Status != session.GoalMaxRounds {
		t.Fatalf("the round changed the goal: %+v", g)
	}
}

func TestTheUserSetsGoalsAndTheAgentMayInAUserTurn(t *testing.T) {
	home, ws := agenticHome(t)
	ctx := context.Background()
	model := script(t, map[string]any{"replies": []any{
		call("create_goal", map[string]any{"objective": "port the CLI", "max_rounds": 2}),
		text("goal set"),
		text("round 1 done"),
		call("update_goal", map[string]any{"goal_id": "goal-1", "revision": 1, "action": "complete"}),
		text("finished"),
	}})
	s := openAgentic(t, home, ws, model, nil)
	defer s.Close()
	out, err := s.Run(ctx, "set a goal to port the CLI, two rounds at most")
	if err != nil || out.Text != "finished" {
		t.Fatalf("%+v %v", out, err)
	}
	creates := sessiontest.DataOf[session.GoalChange](t, s.Events(), session.TypeGoalCreate)
	if len(creates) != 1 || creates[0].By != "agent" || creates[0].Turn != "user" {
		t.Fatalf("%+v", creates)
	}
	if g, _ := s.Goal(); g.Status != session.GoalComplete || g.Rounds != 2 {
		t.Fatalf("%+v", g)
	}
	if _, err := s.UpdateGoal(ctx, "pause", "", 0); err == nil || !strings.Contains(err.Error(), "already complete") {
		t.Fatalf("pausing a complete goal: %v", err)
	}
}

func TestPlanModeSwitchesAndExitPlanModeApproves(t *testing.T) {
	home, ws := agenticHome(t)
	ctx := context.Background()
	plan := "# Plan\n- step one\n- step two\n"
	model := script(t, map[string]any{"replies": []any{
		call("exit_plan_mode", map[string]any{"plan": plan}),
		text("rework it"),
		call("exit_plan_mode", map[string]any{"plan": plan}),
		text("starting"),
	}})
	on := true
	ans := toolstest.Answer("cover the error path too", tools.AnswerApprovePlan)
	s := openAgentic(t, home, ws, model, func(o *harness.Options) { o.Plan, o.Answerer = &on, ans })
	defer s.Close()
	if !s.PlanMode() {
		t.Fatal("--plan did not switch plan mode on")
	}
	out, err := s.Run(ctx, "plan the change")
	if err != nil || out.Text != "rework it" || !s.PlanMode() {
		t.Fatalf("after feedback: %+v %v plan=%v", out, err, s.PlanMode())
	}
	res := sessiontest.DataOf[session.ToolResult](t, s.Events(), session.TypeToolResult)
	if !res[0].IsError || !strings.Contains(res[0].Content[0].Text, "cover the error path too") {
		t.Fatalf("%+v", res[0])
	}
	if out, err = s.Run(ctx, "try again"); err != nil || s.PlanMode() {
		t.Fatalf("after approval: %+v %v plan=%v", out, err, s.PlanMode())
	}
	modes := sessiontest.DataOf[session.PlanMode](t, s.Events(), session.TypePlanMode)
	if len(modes) != 2 || !modes[0].Active || modes[0].By != "user" || modes[1].Active || modes[1].Plan != plan {
		t.Fatalf("%+v", modes)
	}
	todos := sessiontest.DataOf[session.TodoWrite](t, s.Events(), session.TypeTodoWrite)
	if len(todos) != 1 || len(todos[0].Todos) != 2 || todos[0].Todos[1].Content != "step two" {
		t.Fatalf("%+v", todos)
	}
	must(t, s.SetPlanMode(ctx, true))
	if !s.PlanMode() || len(sessiontest.DataOf[session.PlanMode](t, s.Events(), session.TypePlanMode)) != 3 {
		t.Fatal("/plan did not switch it on again")
	}
	if hs := sessiontest.DataOf[session.RequestHeader](t, s.Events(), session.TypeRequestHeader); len(hs) != 1 {
		t.Fatalf("plan mode changed the system text or the tools: %d request/header events", len(hs))
	}
}

func TestAHeadlessPlanStopsTheRun(t *testing.T) {
	home, ws := agenticHome(t)
	model := script(t, map[string]any{"replies": []any{
		call("exit_plan_mode", map[string]any{"plan": "# Plan\n- one\n"}),
		text("this reply must never be asked for"),
	}})
	on := true
	s := openAgentic(t, home, ws, model, func(o *harness.Options) { o.Plan = &on })
	defer s.Close()
	out, err := s.Run(context.Background(), "plan it")
	if err != nil || out.Reason != session.ReasonBlocked || !s.PlanStopped() || !s.PlanMode() {
		t.Fatalf("%+v %v stopped=%v", out, err, s.PlanStopped())
	}
	if n := len(sessiontest.DataOf[session.AssistantMessage](t, s.Events(), session.TypeAssistantMessage)); n != 1 {
		t.Fatalf("%d model answers; the run must stop right after the plan", n)
	}
}

func TestUserInputGoesAheadOfTheNextGoalRound(t *testing.T) {
	home, ws := agenticHome(t)
	model := script(t, map[string]any{"replies": []any{
		text("round one"),
		text("answered the user"),
		call("update_goal", map[string]any{"goal_id": "goal-1", "revision": 1, "action": "complete"}),
		text("done"),
	}})
	s := openAgentic(t, home, ws, model, nil)
	defer s.Close()
	stop := s.Subscribe(func(e session.Event) {
		if e.Type == session.TypeGoalRound && strings.Contains(string(e.Data), `"round":1`) {
			s.Followup("what are you doing?") // typed while round 1 runs
		}
	})
	defer stop()
	ctx := context.Background()
	if _, err := s.SetGoal(ctx, "ship it", 5); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RunGoal(ctx); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, m := range sessiontest.DataOf[session.UserMessage](t, s.Events(), session.TypeUserMessage) {
		order = append(order, m.Source.Kind+":"+m.Content[0].Text[:10])
	}
	want := []string{"plugin:Goal round", "user:what are y", "plugin:Goal round"}
	if strings.Join(order, "|") != strings.Join(want, "|") {
		t.Fatalf("turn inputs %q, want %q", order, want)
	}
	if g, _ := s.Goal(); g.Status != session.GoalComplete || g.Rounds != 2 {
		t.Fatalf("%+v", g)
	}
}
