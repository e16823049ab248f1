package main

import (
	"bufio"
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// fanOut is a program that starts one subagent per task under
// Promise.all and returns only their answers.
const fanOut = `const tasks = ["summarise alpha.md", "summarise beta.md", "summarise gamma.md"];
const answers = await Promise.all(tasks.map(t => tools.subagent({description: t, prompt: "Please " + t})));
return answers.map(a => a.text);`

func lane(match string, replies ...any) map[string]any {
	return map[string]any{"match": match, "replies": replies}
}

func TestAProgramFansOutThreeSubagents(t *testing.T) {
	c := newCLI(t)
	ws := t.TempDir()
	model := scriptJSON(t, map[string]any{
		"replies": []any{
			map[string]any{"tool_calls": []map[string]any{{"id": "fan", "name": "run_code", "arguments": map[string]any{"code": fanOut, "description": "fan out"}}}},
			reply("three summaries"),
		},
		"agents": []any{
			lane("summarise alpha.md", call("run_code", map[string]any{"code": `return (await tools.glob({pattern: "*"})).paths.length`, "description": "look"}),
				map[string]any{"text": "alpha: short", "delay_ms": 20}),
			lane("summarise beta.md", map[string]any{"text": "beta: long", "delay_ms": 50}),
			lane("summarise gamma.md", map[string]any{"text": "gamma: empty", "delay_ms": 5}),
		},
	})
	f := parseFinal(t, c.ok("run", "--workspace", ws, "--model", "script:"+model, "--approval", "never", "--output", "json", "summarise the docs"))
	if f.Text != "three summaries" {
		t.Fatalf("%+v", f)
	}
	parent := c.show(f.SessionID)
	res := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(parent.Events, session.TypeToolResult)[0])
	var answers []string
	if err := json.Unmarshal([]byte(resultText(res)), &answers); err != nil || strings.Join(answers, "|") != "alpha: short|beta: long|gamma: empty" {
		t.Fatalf("the program's result must hold the children's answers and nothing else: %q (%v)", resultText(res), err)
	}
	kids := c.children(f.SessionID)
	if len(kids) != 3 {
		t.Fatalf("%d children", len(kids))
	}
	calls := map[string]bool{}
	for _, k := range kids {
		h := c.show(k.Header.ID).Session
		if h.Parent != f.SessionID || h.Depth != 1 || !strings.HasPrefix(h.ParentCall, "fan:ptc:") || h.Workspace != ws || k.Status != session.ReasonCompleted {
			t.Fatalf("child %+v / %+v", h, k)
		}
		calls[h.ParentCall] = true
	}
	if len(calls) != 3 {
		t.Fatalf("each child names its own call: %v", calls)
	}
	if starts := sessiontest.OfType(parent.Events, session.TypeSubagentStart); len(starts) != 3 || len(sessiontest.OfType(parent.Events, session.TypeSubagentEnd)) != 3 {
		t.Fatalf("%d subagent/start", len(starts))
	}
	if text := c.ok("session", "show", f.SessionID); !strings.Contains(text, "subagents (3):") {
		t.Fatalf("ptc session show does not list the children:\n%s", text)
	}
}

func TestDepthFourIsRefused(t *testing.T) {
	c := newCLI(t)
	sub := func(prompt string) map[string]any {
		return call("subagent", map[string]any{"description": "deeper", "prompt": prompt})
	}
	model := scriptJSON(t, map[string]any{
		"replies": []any{sub("go to level one"), reply("root done")},
		"agents": []any{
			lane("level one", sub("go to level two"), reply("one done")),
			lane("level two", sub("go to level three"), reply("two done")),
			lane("level three", sub("go to level four"), reply("three was refused")),
			lane("level four", reply("must never run")),
		},
	})
	f := parseFinal(t, c.ok("run", "--preset", "standard", "--workspace", t.TempDir(), "--model", "script:"+model, "--approval", "never", "--output", "json", "nest"))
	id := f.SessionID
	for depth := 1; depth <= 3; depth++ {
		kids := c.children(id)
		if len(kids) != 1 || kids[0].Header.Depth != depth {
			t.Fatalf("depth %d: %+v", depth, kids)
		}
		id = kids[0].Header.ID
	}
	if kids := c.children(id); len(kids) != 0 {
		t.Fatalf("a session at depth 4 was made: %+v", kids)
	}
	r := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(c.show(id).Events, session.TypeToolResult)[0])
	if r.Error == nil || r.Error.Code != "DENIED" || !strings.Contains(resultText(r), "at most 3 deep") {
		t.Fatalf("%+v", r)
	}
}

// TestKillingTheParentMidwayLeavesAllFourSessionsResumable SIGKILLs a run
// while its program's three subagents are streaming, then resumes the
// parent and each child.
func TestKillingTheParentMidwayLeavesAllFourSessionsResumable(t *testing.T) {
	c := newCLI(t)
	ws := t.TempDir()
	slow := func(name string) map[string]any {
		return lane("summarise "+name, map[string]any{"text": strings.Repeat(name+" is a long document. ", 30), "delay_ms": 1500})
	}
	model := scriptJSON(t, map[string]any{
		"replies": []any{
			map[string]any{"tool_calls": []map[string]any{{"id": "fan", "name": "run_code", "arguments": map[string]any{"code": fanOut, "description": "fan out"}}}},
			reply("never reached"),
		},
		"agents": []any{slow("alpha.md"), slow("beta.md"), slow("gamma.md")},
	})
	cmd := c.command("run", "--workspace", ws, "--model", "script:"+model, "--approval", "never", "--output", "stream-json", "summarise the docs")
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
		t.Fatalf("only %d subagents started", started)
	}
	time.Sleep(400 * time.Millisecond) // the children are streaming their answers
	_ = cmd.Process.Signal(syscall.SIGKILL)
	go func() {
		for sc.Scan() {
		}
	}()
	_ = cmd.Wait()

	kids := c.children(parent)
	if len(kids) != 3 {
		t.Fatalf("%d children after the kill", len(kids))
	}
	done := writeScript(t, reply("finished after the crash"))
	for _, id := range append([]string{parent}, kids[0].Header.ID, kids[1].Header.ID, kids[2].Header.ID) {
		if s := c.show(id); len(sessiontest.OfType(s.Events, session.TypeTurnStart)) != 1 {
			t.Fatalf("%s: %d turns before resuming", id, len(sessiontest.OfType(s.Events, session.TypeTurnStart)))
		}
		f := parseFinal(t, c.ok("run", "--resume", id, "--model", "script:"+done, "--approval", "never", "--output", "json", "finish"))
		if f.Reason != session.ReasonCompleted || f.Text != "finished after the crash" {
			t.Fatalf("%s: %+v", id, f)
		}
		ev := c.show(id).Events
		ends := sessiontest.OfType(ev, session.TypeTurnEnd)
		if len(ends) != 2 || sessiontest.Decode[session.TurnEnd](t, ends[0]).Reason != session.ReasonInterrupted {
			t.Fatalf("%s: the killed turn must be repaired as interrupted: %v", id, types(ev))
		}
	}
	// The parent's program call was cut off: its repaired result says so.
	r := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(c.show(parent).Events, session.TypeToolResult)[0])
	if r.Error == nil || r.Error.Code != "TOOL_OUTCOME_UNKNOWN" {
		t.Fatalf("%+v", r)
	}
}
