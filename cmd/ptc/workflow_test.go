package main

import (
	"bufio"
	"encoding/json"
	"strings"
	"syscall"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// twoPhases is a workflow with one agent in a first phase and three in
// parallel in a second, the third with a schema.
const twoPhases = `const survey = await phase("survey", () => agent({prompt: "WF-SURVEY: list the parts", description: "survey"}));
const parts = await phase("build", () => parallel([
  () => agent({prompt: "WF-PART-A: build part a"}),
  () => agent({prompt: "WF-PART-B: build part b"}),
  () => agent({prompt: "WF-PART-C: check part c", schema: {type: "object", properties: {ok: {type: "boolean"}, count: {type: "integer"}}, required: ["ok", "count"], additionalProperties: false}}),
]));
return {survey, parts};`

func workflowCall(id, script string) map[string]any {
	return map[string]any{"tool_calls": []map[string]any{{"id": id, "name": "workflow", "arguments": map[string]any{"script": script, "description": "survey then build"}}}}
}

// workflowResult is the JSON value a workflow's tool/result shows, before
// the line naming its agents.
func workflowResult(t *testing.T, text string) map[string]any {
	t.Helper()
	body := text[:strings.LastIndex(text, "\n(")]
	var v map[string]any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("the workflow's result is not a JSON object: %v\n%s", err, text)
	}
	return v
}

func TestAWorkflowRunsPhasesParallelAgentsAndASchemaCheckedAnswer(t *testing.T) {
	c := newCLI(t)
	ws := t.TempDir()
	model := scriptJSON(t, map[string]any{
		"replies": []any{workflowCall("wf", twoPhases), reply("built")},
		"agents": []any{
			lane("WF-SURVEY", reply("parts: a, b, c")),
			lane("WF-PART-A", map[string]any{"text": "a built", "delay_ms": 30}),
			lane("WF-PART-B", reply("b built")),
			lane("WF-PART-C", reply("c looks fine, three checks passed"), reply(`{"ok": true, "count": 3}`)),
		},
	})
	f := parseFinal(t, c.ok("run", "--preset", "standard", "--workspace", ws, "--model", "script:"+model, "--approval", "never", "--output", "json", "survey and build"))
	if f.Text != "built" {
		t.Fatalf("%+v", f)
	}
	parent := c.show(f.SessionID)
	res := results(t, parent.Events)["wf"]
	if res.IsError {
		t.Fatalf("the workflow failed: %s", resultText(res))
	}
	got := workflowResult(t, resultText(res))
	parts, _ := got["parts"].([]any)
	if got["survey"] != "parts: a, b, c" || len(parts) != 3 || parts[0] != "a built" || parts[1] != "b built" {
		t.Fatalf("result %v", got)
	}
	if checked, ok := parts[2].(map[string]any); !ok || checked["ok"] != true || checked["count"] != float64(3) {
		t.Fatalf("the schema-checked answer must come back as an object: %#v", parts[2])
	}

	kids := c.children(f.SessionID)
	if len(kids) != 4 {
		t.Fatalf("%d children", len(kids))
	}
	for _, k := range kids {
		h := c.show(k.Header.ID).Session
		if h.Parent != f.SessionID || h.Depth != 1 || !strings.HasPrefix(h.ParentCall, "wf:ptc:") || h.Workspace != ws {
			t.Fatalf("child %+v", h)
		}
	}
	var phases []session.WorkflowPhase
	for _, e := range sessiontest.OfType(parent.Events, session.TypeWorkflowPhase) {
		phases = append(phases, sessiontest.Decode[session.WorkflowPhase](t, e))
	}
	want := []string{"1 survey started", "1 survey completed", "2 build started", "2 build completed"}
	if len(phases) != len(want) {
		t.Fatalf("phases %+v", phases)
	}
	for i, p := range phases {
		if s := strings.Join([]string{itoa(p.Index), p.Name, p.Status}, " "); s != want[i] || p.CallID != "wf" {
			t.Fatalf("phase %d: %+v, want %s", i, p, want[i])
		}
	}
	if phases[3].DurationMs < 30 {
		t.Fatalf("the build phase waited for a 30 ms agent but lasted %d ms", phases[3].DurationMs)
	}
	for _, e := range sessiontest.OfType(parent.Events, session.TypePtcDispatchStart) {
		if d := sessiontest.Decode[session.PtcDispatch](t, e); d.Name != "agent" {
			t.Fatalf("a workflow dispatches only agents: %+v", d)
		}
	}

	// The schema child: told the schema, answered prose, was told why, answered JSON.
	var ev []session.Event
	for _, k := range kids {
		if e := c.show(k.Header.ID).Events; strings.Contains(firstPrompt(t, e), "WF-PART-C") {
			ev = e
		}
	}
	if ev == nil {
		t.Fatalf("no child for WF-PART-C among %+v", kids)
	}
	retries := userTexts(t, ev, "structured_output")
	if len(retries) != 1 {
		t.Fatalf("the schema child must get exactly one retry: %q", retries)
	}
	retry := retries[0]
	if !strings.Contains(retry, "not valid against the required JSON Schema") || !strings.Contains(retry, "not valid JSON") {
		t.Fatalf("retry prompt %q", retry)
	}
	hdr := sessiontest.Decode[session.RequestHeader](t, sessiontest.OfType(ev, session.TypeRequestHeader)[0])
	if !strings.Contains(hdr.System, "Structured output") || !strings.Contains(hdr.System, `"required":["ok","count"]`) {
		t.Fatalf("the schema child's system prompt lacks the structured_output section:\n%s", hdr.System)
	}
}

func TestAWorkflowAgentFailingItsSchemaTwiceRejects(t *testing.T) {
	c := newCLI(t)
	script := `try { await agent({prompt: "WF-BAD: count", schema: {type: "object", properties: {n: {type: "integer"}}, required: ["n"]}}); return "accepted"; } catch (e) { return "rejected: " + e.message; }`
	model := scriptJSON(t, map[string]any{
		"replies": []any{workflowCall("wf", script), reply("done")},
		"agents":  []any{lane("WF-BAD", reply("three"), reply(`{"n": "three"}`))},
	})
	f := parseFinal(t, c.ok("run", "--preset", "standard", "--workspace", t.TempDir(), "--model", "script:"+model, "--approval", "never", "--output", "json", "count"))
	text := resultText(results(t, c.show(f.SessionID).Events)["wf"])
	if !strings.Contains(text, "rejected: ") || !strings.Contains(text, "/n") || !strings.Contains(text, "after one retry") {
		t.Fatalf("%s", text)
	}
}

// firstPrompt is the text of a session's first prompt (not a snapshot).
func firstPrompt(t *testing.T, events []session.Event) string {
	t.Helper()
	if texts := userTexts(t, events, ""); len(texts) > 0 {
		return texts[0]
	}
	return ""
}

// userTexts are the texts of the user/message events from the user (name
// "") or from the plugin called name.
func userTexts(t *testing.T, events []session.Event, name string) []string {
	t.Helper()
	var out []string
	for _, e := range sessiontest.OfType(events, session.TypeUserMessage) {
		m := sessiontest.Decode[session.UserMessage](t, e)
		if (name == "" && m.Source.Kind == "user" || name != "" && m.Source.Name == name) && len(m.Content) > 0 {
			out = append(out, m.Content[0].Text)
		}
	}
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestInterruptingAWorkflowStopsEveryAgent sends SIGINT while three
// parallel agents stream slow answers: the run ends aborted and every
// child ends stopped, none left running.
func TestInterruptingAWorkflowStopsEveryAgent(t *testing.T) {
	c := newCLI(t)
	slow := func(name string) map[string]any {
		return lane("WF-SLOW-"+name, map[string]any{"text": strings.Repeat(name+" is slow. ", 40), "delay_ms": 3000})
	}
	script := `return await phase("slow", () => parallel(["A", "B", "C"].map(n => () => agent({prompt: "WF-SLOW-" + n + ": take your time"}))));`
	model := scriptJSON(t, map[string]any{
		"replies": []any{workflowCall("wf", script), reply("never reached")},
		"agents":  []any{slow("A"), slow("B"), slow("C")},
	})
	cmd := c.command("run", "--preset", "standard", "--workspace", t.TempDir(), "--model", "script:"+model, "--approval", "never", "--output", "stream-json", "go slow")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var parent string
	started := 0
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	for started < 3 && sc.Scan() {
		var line struct {
			SessionID string `json:"session_id"`
			session.Event
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil {
			parent = line.SessionID
			if line.Type == session.TypeSubagentStart {
				started++
			}
		}
	}
	if started < 3 {
		_ = cmd.Process.Kill()
		t.Fatalf("only %d agents started", started)
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
	go func() {
		for sc.Scan() {
		}
	}()
	_ = cmd.Wait()
	ev := c.show(parent).Events
	ends := sessiontest.OfType(ev, session.TypeSubagentEnd)
	if len(ends) != 3 {
		t.Fatalf("%d subagent/end after the interrupt: %v", len(ends), types(ev))
	}
	for _, e := range ends {
		if d := sessiontest.Decode[session.SubagentEnd](t, e); d.Status != session.SubagentStopped {
			t.Fatalf("a child was not stopped: %+v", d)
		}
	}
	phases := sessiontest.OfType(ev, session.TypeWorkflowPhase)
	if len(phases) != 2 || sessiontest.Decode[session.WorkflowPhase](t, phases[1]).Status != session.PhaseFailed {
		t.Fatalf("the interrupted phase must end failed: %d phase events", len(phases))
	}
	for _, k := range c.children(parent) {
		if k.Status == "running" || !k.Closed {
			t.Fatalf("child %s left %q (closed %v)", k.Header.ID, k.Status, k.Closed)
		}
	}
}

// TestAProgramRunsAWorkflow calls workflow from a run_code program (the
// ptc preset's way): the engine runs the script in an engine of its own
// and the program gets the script's result as the value's result.
func TestAProgramRunsAWorkflow(t *testing.T) {
	c := newCLI(t)
	script := `return await phase("only", () => agent({prompt: "WF-NESTED: answer", schema: {type: "object", properties: {n: {type: "integer"}}, required: ["n"]}}));`
	code := "const r = await tools.workflow({description: \"nested\", script: " + strings.ReplaceAll(quoteJSON(script), "\n", "") + "});\nreturn r.result.n + 1;"
	model := scriptJSON(t, map[string]any{
		"replies": []any{map[string]any{"tool_calls": []map[string]any{{"id": "rc", "name": "run_code", "arguments": map[string]any{"code": code, "description": "run a workflow"}}}}, reply("done")},
		"agents":  []any{lane("WF-NESTED", reply(`{"n": 41}`))},
	})
	f := parseFinal(t, c.ok("run", "--workspace", t.TempDir(), "--model", "script:"+model, "--approval", "never", "--output", "json", "nest"))
	ev := c.show(f.SessionID).Events
	if r := results(t, ev)["rc"]; r.IsError || strings.TrimSpace(resultText(r)) != "42" {
		t.Fatalf("%+v", r)
	}
	if len(c.children(f.SessionID)) != 1 || len(sessiontest.OfType(ev, session.TypeWorkflowPhase)) != 2 {
		t.Fatalf("one child and one phase: %v", types(ev))
	}
}

func quoteJSON(s string) string { b, _ := json.Marshal(s); return string(b) }
