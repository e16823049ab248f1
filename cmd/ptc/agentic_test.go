package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// scriptJSON writes a whole scripted-model file (replies, agents lanes).
func scriptJSON(t *testing.T, body map[string]any) string {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func calls(cs ...map[string]any) map[string]any { return map[string]any{"tool_calls": cs} }

func reply(text string) map[string]any { return map[string]any{"text": text} }

// results maps call ids to their tool/result.
func results(t *testing.T, events []session.Event) map[string]session.ToolResult {
	out := map[string]session.ToolResult{}
	for _, e := range sessiontest.OfType(events, session.TypeToolResult) {
		r := sessiontest.Decode[session.ToolResult](t, e)
		out[r.CallID] = r
	}
	return out
}

func resultText(r session.ToolResult) string {
	if len(r.Content) == 0 {
		return ""
	}
	return r.Content[0].Text
}

const thePlan = "# Rename alpha to beta\n\n1. Edit a.txt\n2. Write b.txt\n3. Format d.go\n"

// TestPlanModeIsEnforcedInEveryToolAndTier drives a standard session in
// plan mode: write, edit, a mutating bash command and a host program that
// writes are all refused while read and grep work; the headless run
// prints the plan and stops; resumed with --approve-plan the plan is
// approved, becomes the todo list, and the same writes work.
func TestPlanModeIsEnforcedInEveryToolAndTier(t *testing.T) {
	needHostTools(t)
	c := sharedCacheCLI(t)
	ws := t.TempDir()
	for name, body := range map[string]string{"a.txt": "alpha\n", "d.go": "package   main\n"} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	explore := scriptJSON(t, map[string]any{"replies": []any{
		calls(
			map[string]any{"id": "read", "name": "read", "arguments": map[string]any{"file_path": "a.txt"}},
			map[string]any{"id": "grep", "name": "grep", "arguments": map[string]any{"pattern": "alpha"}},
			map[string]any{"id": "write", "name": "write", "arguments": map[string]any{"file_path": "b.txt", "content": "new"}},
			map[string]any{"id": "edit", "name": "edit", "arguments": map[string]any{"file_path": "a.txt", "old_string": "alpha", "new_string": "beta"}},
			map[string]any{"id": "bash", "name": "bash", "arguments": map[string]any{"command": "echo x > c.txt", "description": "write a file"}},
			map[string]any{"id": "host", "name": "bash", "arguments": map[string]any{"command": "gofmt -w d.go", "description": "format in place"}},
			map[string]any{"id": "escalate", "name": "bash", "arguments": map[string]any{"command": "touch e.txt", "description": "touch",
				"sandbox_permissions": "danger-full-access", "justification": "need it"}},
		),
		call("exit_plan_mode", map[string]any{"plan": thePlan}),
		reply("this reply is never asked for: the run stops at the plan"),
	}})
	out, errs, code := c.run("run", "--plan", "--preset", "standard", "--workspace", ws, "--model", "script:"+explore, "--approval", "never", "--output", "json", "rename alpha")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	f := parseFinal(t, out)
	if f.Text != thePlan || f.Reason != session.ReasonBlocked {
		t.Fatalf("a headless plan must be printed and stop the run: %+v", f)
	}
	ev := c.show(f.SessionID).Events
	res := results(t, ev)
	for _, id := range []string{"write", "edit", "escalate"} {
		if r := res[id]; r.Error == nil || r.Error.Code != "DENIED" || !strings.Contains(resultText(r), "plan mode is on") {
			t.Errorf("%s: %+v", id, r)
		}
	}
	for _, id := range []string{"bash", "host"} {
		if r := strings.ToLower(resultText(res[id])); !strings.Contains(r, "read-only") || !strings.Contains(r, "plan mode is on") {
			t.Errorf("%s: %q", id, resultText(res[id]))
		}
	}
	if !strings.Contains(resultText(res["read"]), "alpha") || !strings.Contains(resultText(res["grep"]), "a.txt") || res["read"].IsError || res["grep"].IsError {
		t.Errorf("read and grep must work: %q / %q", resultText(res["read"]), resultText(res["grep"]))
	}
	assertFiles(t, ws, map[string]string{"a.txt": "alpha\n", "d.go": "package   main\n"}, "b.txt", "c.txt", "e.txt")
	if modes := sessiontest.OfType(ev, session.TypePlanMode); len(modes) != 1 || !sessiontest.Decode[session.PlanMode](t, modes[0]).Active {
		t.Fatalf("plan/mode events %v", modes)
	}

	work := scriptJSON(t, map[string]any{"replies": []any{
		call("exit_plan_mode", map[string]any{"plan": thePlan}),
		calls(
			map[string]any{"id": "read2", "name": "read", "arguments": map[string]any{"file_path": "a.txt"}},
			map[string]any{"id": "write2", "name": "write", "arguments": map[string]any{"file_path": "b.txt", "content": "new"}},
			map[string]any{"id": "edit2", "name": "edit", "arguments": map[string]any{"file_path": "a.txt", "old_string": "alpha", "new_string": "beta"}},
			map[string]any{"id": "bash2", "name": "bash", "arguments": map[string]any{"command": "echo x > c.txt && gofmt -w d.go", "description": "write and format"}},
		),
		reply("done"),
	}})
	out, errs, code = c.run("run", "--resume", f.SessionID, "--model", "script:"+work, "--approve-plan", "--approval", "never", "--output", "json", "go ahead")
	if code != 0 || parseFinal(t, out).Text != "done" {
		t.Fatalf("exit %d: %s\n%s", code, out, errs)
	}
	ev = c.show(f.SessionID).Events
	for _, id := range []string{"write2", "edit2", "bash2"} {
		if r := results(t, ev)[id]; r.IsError {
			t.Errorf("%s after approval: %+v", id, r)
		}
	}
	assertFiles(t, ws, map[string]string{"a.txt": "beta\n", "b.txt": "new", "c.txt": "x\n", "d.go": "package main\n"})
	modes := sessiontest.OfType(ev, session.TypePlanMode)
	last := sessiontest.Decode[session.PlanMode](t, modes[len(modes)-1])
	if last.Active || last.By != "plan-approved" || last.Plan != thePlan {
		t.Fatalf("last plan/mode %+v", last)
	}
	todos := sessiontest.OfType(ev, session.TypeTodoWrite)
	if len(todos) != 1 || len(sessiontest.Decode[session.TodoWrite](t, todos[0]).Todos) != 3 {
		t.Fatalf("the approved plan must be the first todo list: %v", todos)
	}
}

// TestPlanModeRefusesWritesAProgramMakes: under the ptc preset the
// nested calls of a run_code program go through the same pipeline.
func TestPlanModeRefusesWritesAProgramMakes(t *testing.T) {
	c := newCLI(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code := `const r = await tools.read({file_path: "a.txt"});
let w = "";
try { await tools.write({file_path: "b.txt", content: "x"}); w = "written"; } catch (e) { w = e.code + ": " + e.message; }
return {read: JSON.stringify(r.lines).includes("alpha"), write: w};`
	model := writeScript(t, call("run_code", map[string]any{"code": code, "description": "read and try a write"}), reply("planned"))
	out := c.ok("run", "--plan", "--workspace", ws, "--model", "script:"+model, "--approval", "never", "--output", "json", "look")
	ev := c.show(parseFinal(t, out).SessionID).Events
	text := resultText(sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(ev, session.TypeToolResult)[0]))
	if !strings.Contains(text, `"read": true`) || !strings.Contains(text, "DENIED: write was refused: plan mode is on") {
		t.Fatalf("%s", text)
	}
	assertFiles(t, ws, map[string]string{"a.txt": "alpha\n"}, "b.txt")
}

func assertFiles(t *testing.T, dir string, want map[string]string, absent ...string) {
	t.Helper()
	for name, body := range want {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(b) != body {
			t.Errorf("%s = %q (%v), want %q", name, b, err, body)
		}
	}
	for _, name := range absent {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s exists", name)
		}
	}
}

// TestGoalsThroughTheCLI: a goal runs rounds and completes; the cap ends
// one whose rounds try to raise it; a killed-off goal continues on resume
// without a prompt; a subagent cannot create one.
func TestGoalsThroughTheCLI(t *testing.T) {
	c := newCLI(t)
	ws := t.TempDir()
	run := func(args ...string) finalJSON {
		t.Helper()
		out, errs, code := c.run(append([]string{"run", "--preset", "standard", "--workspace", ws, "--approval", "never", "--output", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("ptc %v: exit %d: %s", args, code, errs)
		}
		return parseFinal(t, out)
	}
	goalOf := func(id string) session.Goal {
		ev := c.show(id).Events
		changes := append(sessiontest.OfType(ev, session.TypeGoalCreate), sessiontest.OfType(ev, session.TypeGoalUpdate)...)
		last := changes[0]
		for _, e := range changes {
			if e.Seq > last.Seq {
				last = e
			}
		}
		return sessiontest.Decode[session.GoalChange](t, last).Goal
	}
	t.Run("a goal runs several rounds and completes", func(t *testing.T) {
		model := writeScript(t, reply("round 1"), reply("round 2"),
			call("update_goal", map[string]any{"goal_id": "goal-1", "revision": 1, "action": "complete"}), reply("complete"))
		f := run("--model", "script:"+model, "--goal", "make the tests pass", "--max-rounds", "10")
		if g := goalOf(f.SessionID); f.Text != "complete" || g.Status != session.GoalComplete || g.Rounds != 3 {
			t.Fatalf("%+v %+v", f, g)
		}
		if n := len(sessiontest.OfType(c.show(f.SessionID).Events, session.TypeGoalRound)); n != 3 {
			t.Fatalf("%d rounds", n)
		}
	})
	t.Run("the cap ends a goal whose rounds try to raise it", func(t *testing.T) {
		raise := call("update_goal", map[string]any{"goal_id": "goal-1", "revision": 1, "action": "edit", "max_rounds": 50})
		model := writeScript(t, raise, reply("round 1 tried"), reply("round 2"))
		f := run("--model", "script:"+model, "--goal", "refactor", "--max-rounds", "2")
		g := goalOf(f.SessionID)
		if g.Status != session.GoalMaxRounds || g.MaxRounds != 2 || g.Rounds != 2 {
			t.Fatalf("%+v", g)
		}
		r := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(c.show(f.SessionID).Events, session.TypeToolResult)[0])
		if r.Error == nil || r.Error.Code != "DENIED" || !strings.Contains(resultText(r), "goal round cannot edit") {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("a resumed session continues the goal without a prompt", func(t *testing.T) {
		short := writeScript(t, reply("round 1"))
		out, _, code := c.run("run", "--preset", "standard", "--workspace", ws, "--approval", "never", "--output", "json",
			"--model", "script:"+short, "--goal", "write the docs", "--max-rounds", "4")
		f := parseFinal(t, out)
		if code == 0 || f.Reason != session.ReasonError {
			t.Fatalf("the script runs out in round 2: exit %d %+v", code, f)
		}
		// The failed round 2 counts (rounds count as they start), so the
		// resumed session goes on with round 3.
		rest := writeScript(t, reply("round 3"),
			call("update_goal", map[string]any{"goal_id": "goal-1", "revision": 1, "action": "complete"}), reply("documented"))
		g := run("--resume", f.SessionID, "--model", "script:"+rest)
		if got := goalOf(f.SessionID); g.Text != "documented" || got.Status != session.GoalComplete || got.Rounds != 4 {
			t.Fatalf("%+v %+v", g, got)
		}
	})
	t.Run("a subagent cannot create a goal", func(t *testing.T) {
		model := scriptJSON(t, map[string]any{
			"replies": []any{call("subagent", map[string]any{"description": "helper", "prompt": "help with the docs"}), reply("asked")},
			"agents": []any{map[string]any{"match": "help with the docs", "replies": []any{
				call("create_goal", map[string]any{"objective": "rule the world"}), reply("could not"),
			}}},
		})
		f := run("--model", "script:"+model, "delegate")
		kids := c.children(f.SessionID)
		if len(kids) != 1 {
			t.Fatalf("%d children", len(kids))
		}
		ev := c.show(kids[0].Header.ID).Events
		r := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(ev, session.TypeToolResult)[0])
		if r.Error == nil || !strings.Contains(resultText(r), "a subagent cannot create a goal") || len(sessiontest.OfType(ev, session.TypeGoalCreate)) != 0 {
			t.Fatalf("%+v", r)
		}
	})
}

// children are a session's subagents as ptc session show --output json
// lists them.
func (c *cli) children(id string) []session.Summary {
	c.t.Helper()
	var s struct {
		Children []session.Summary `json:"children"`
	}
	if err := json.Unmarshal([]byte(c.ok("session", "show", id, "--output", "json")), &s); err != nil {
		c.t.Fatal(err)
	}
	return s.Children
}

func TestSlashPlanAndSlashGoalInTheLineSession(t *testing.T) {
	c := newCLI(t)
	model := writeScript(t,
		call("update_goal", map[string]any{"goal_id": "goal-1", "revision": 1, "action": "complete"}), reply("the docs are tidy"),
		reply("plain answer"))
	cmd := c.command("--preset", "standard", "--workspace", t.TempDir(), "--model", "script:"+model, "--approval", "never")
	cmd.Stdin = strings.NewReader("/plan\n/goal tidy the docs\n/plan off\nhello\n")
	out, errs, code := c.collect(cmd)
	if code != 0 || !strings.Contains(out, "plain answer") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "plan mode on") || !strings.Contains(errs, "plan mode off") || !strings.Contains(errs, "goal-1 (revision 1, active, 0 of 256 rounds): tidy the docs") {
		t.Fatalf("stderr %q", errs)
	}
	id := ""
	for _, f := range strings.Fields(errs) {
		if strings.Count(f, "-") == 2 && len(f) == 22 {
			id = f
		}
	}
	ev := c.show(id).Events
	modes := sessiontest.OfType(ev, session.TypePlanMode)
	if len(modes) != 2 || !sessiontest.Decode[session.PlanMode](t, modes[0]).Active || sessiontest.Decode[session.PlanMode](t, modes[1]).Active {
		t.Fatalf("%d plan/mode events", len(modes))
	}
	create := sessiontest.Decode[session.GoalChange](t, sessiontest.OfType(ev, session.TypeGoalCreate)[0])
	upd := sessiontest.Decode[session.GoalChange](t, sessiontest.OfType(ev, session.TypeGoalUpdate)[0])
	if create.By != "user" || upd.Action != "complete" || upd.Turn != "round" || len(sessiontest.OfType(ev, session.TypeGoalRound)) != 1 {
		t.Fatalf("%+v %+v", create, upd)
	}
}
