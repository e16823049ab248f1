package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// writeScript writes a scripted-model file whose replies are given as Go
// values and returns its path.
func writeScript(t *testing.T, replies ...map[string]any) string {
	t.Helper()
	return scriptJSON(t, map[string]any{"replies": replies})
}

func call(name string, args map[string]any) map[string]any {
	return map[string]any{"tool_calls": []map[string]any{{"name": name, "arguments": args}}}
}

// workspace makes a small repository to run tools against.
func workspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	files := map[string]string{
		"go.mod":       "module example.com/demo\n\ngo 1.26\n",
		"main.go":      "package main\n\n// TODO: handle flags\nfunc main() {}\n",
		"util/util.go": "package util\n\n// TODO: faster\n// TODO: document\nfunc F() {}\n",
	}
	for name, body := range files {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func TestPTCPresetRunsProgramsThatCallTools(t *testing.T) {
	ws := workspace(t)
	program := `
const mod = await tools.read({file_path: "go.mod"});
const hits = await tools.grep({pattern: "TODO", output_mode: "count"});
const sh = await tools.bash({command: "ls | wc -l", description: "count entries"});
console.log("entries:", sh.stdout.trim());
return {module: mod.lines.some(l => l.text.includes("example.com/demo")), todoFiles: Object.keys(hits.counts).length};`
	script := writeScript(t,
		call("run_code", map[string]any{"description": "inspect the repo", "code": program}),
		map[string]any{"text": "Inspected."},
	)
	c := newCLI(t)
	f := parseFinal(t, c.ok("run", "--preset", "ptc", "--workspace", ws, "--model", "script:"+script, "--output", "json", "inspect"))
	if f.Reason != session.ReasonCompleted {
		t.Fatalf("final = %+v", f)
	}
	events := c.show(f.SessionID).Events

	t.Run("the request carries only run_code", func(t *testing.T) {
		h := sessiontest.Decode[session.RequestHeader](t, sessiontest.OfType(events, session.TypeRequestHeader)[0])
		if len(h.Tools) != 1 || h.Tools[0].Name != "run_code" {
			t.Fatalf("wire tools = %+v", h.Tools)
		}
		if !strings.Contains(h.System, "declare const tools") {
			t.Fatalf("the system text has no SDK section:\n%s", h.System)
		}
	})
	t.Run("the nested calls are logged in program order", func(t *testing.T) {
		var names []string
		for _, e := range sessiontest.OfType(events, session.TypePtcDispatchStart) {
			d := sessiontest.Decode[session.PtcDispatch](t, e)
			names = append(names, d.Name)
		}
		if want := []string{"read", "grep", "bash"}; !reflect.DeepEqual(names, want) {
			t.Fatalf("dispatch starts = %v, want %v", names, want)
		}
		for _, e := range sessiontest.OfType(events, session.TypePtcDispatch) {
			if d := sessiontest.Decode[session.PtcDispatch](t, e); d.IsError {
				t.Fatalf("nested call failed: %+v", d)
			}
		}
	})
	t.Run("the model sees only the program's output", func(t *testing.T) {
		results := sessiontest.OfType(events, session.TypeToolResult)
		if len(results) != 1 {
			t.Fatalf("%d tool results, want 1", len(results))
		}
		r := sessiontest.Decode[session.ToolResult](t, results[0])
		text := r.Content[0].Text
		if r.IsError || !strings.Contains(text, "entries: 3") || !strings.Contains(text, `"module": true`) || !strings.Contains(text, `"todoFiles": 2`) {
			t.Fatalf("result = %+v", r)
		}
		if strings.Contains(text, "handle flags") || strings.Contains(text, "go 1.26") {
			t.Fatalf("raw tool output leaked into the model's result:\n%s", text)
		}
	})
}

func TestPTCPresetRefusesDirectCallsToOtherTools(t *testing.T) {
	script := writeScript(t,
		call("bash", map[string]any{"command": "ls", "description": "list"}),
		map[string]any{"text": "ok"},
	)
	c := newCLI(t)
	f := parseFinal(t, c.ok("run", "--preset", "ptc", "--workspace", workspace(t), "--model", "script:"+script, "--output", "json", "go"))
	r := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(c.show(f.SessionID).Events, session.TypeToolResult)[0])
	if r.Error == nil || r.Error.Code != "UNKNOWN_TOOL" || !strings.Contains(r.Error.Message, "tools.bash") {
		t.Fatalf("result = %+v", r)
	}
}

func TestApprovalNeverTurnsAnEscalationIntoADenial(t *testing.T) {
	script := writeScript(t,
		call("bash", map[string]any{"command": "uname", "description": "host kernel",
			"sandbox_permissions": "danger-full-access", "justification": "need the host"}),
		map[string]any{"text": "denied, moving on"},
	)
	c := newCLI(t)
	f := parseFinal(t, c.ok("run", "--preset", "standard", "--approval", "never", "--workspace", workspace(t),
		"--model", "script:"+script, "--output", "json", "go"))
	if f.Reason != session.ReasonCompleted || f.Text != "denied, moving on" {
		t.Fatalf("the turn did not continue after the denial: %+v", f)
	}
	r := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(c.show(f.SessionID).Events, session.TypeToolResult)[0])
	if !r.IsError || r.Error == nil || r.Error.Code != "DENIED" {
		t.Fatalf("result = %+v", r)
	}
}

func TestStandardPresetRunsSandboxToolsNatively(t *testing.T) {
	ws := workspace(t)
	script := writeScript(t,
		call("read", map[string]any{"file_path": "main.go"}),
		call("edit", map[string]any{"file_path": "main.go", "old_string": "// TODO: handle flags", "new_string": "// flags handled"}),
		map[string]any{"text": "edited"},
	)
	c := newCLI(t)
	f := parseFinal(t, c.ok("run", "--preset", "standard", "--workspace", ws, "--model", "script:"+script, "--output", "json", "fix"))
	for _, e := range sessiontest.OfType(c.show(f.SessionID).Events, session.TypeToolResult) {
		if r := sessiontest.Decode[session.ToolResult](t, e); r.IsError {
			t.Fatalf("tool failed: %+v", r)
		}
	}
	b, err := os.ReadFile(filepath.Join(ws, "main.go"))
	if err != nil || !strings.Contains(string(b), "// flags handled") {
		t.Fatalf("main.go after the edit: %q (%v)", b, err)
	}
}

func TestALargeResultIsSpilledWhereTheReadToolCanPageThroughIt(t *testing.T) {
	ws := workspace(t)
	c := newCLI(t)
	first := writeScript(t,
		call("bash", map[string]any{"command": "seq 30000", "description": "many lines"}),
		map[string]any{"text": "too long"},
	)
	f := parseFinal(t, c.ok("run", "--preset", "standard", "--workspace", ws, "--model", "script:"+first, "--output", "json", "count"))
	r := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(c.show(f.SessionID).Events, session.TypeToolResult)[0])
	text := r.Content[0].Text
	at := strings.Index(text, "saved at ")
	if r.IsError || at < 0 || len(text) > 60_000 {
		t.Fatalf("the result was not cut with a spill note (%d bytes):\n%.400s", len(text), text)
	}
	path := strings.Fields(text[at+len("saved at "):])[0]
	path = strings.TrimSuffix(path, ";")

	second := writeScript(t,
		call("read", map[string]any{"file_path": path, "offset": 25000, "limit": 3}),
		map[string]any{"text": "read it"},
	)
	f = parseFinal(t, c.ok("run", "--resume", f.SessionID, "--preset", "standard", "--workspace", ws, "--model", "script:"+second, "--output", "json", "show the rest"))
	results := sessiontest.OfType(c.show(f.SessionID).Events, session.TypeToolResult)
	r = sessiontest.Decode[session.ToolResult](t, results[len(results)-1])
	if r.IsError || !strings.Contains(r.Content[0].Text, "25002") {
		t.Fatalf("reading the spilled text: %+v", r)
	}
}

func TestMalformedToolArgumentsBecomeAResultTheModelCanRead(t *testing.T) {
	script := writeScript(t,
		map[string]any{"tool_calls": []map[string]any{{"name": "read", "arguments": `{"file_path": "main.go",`}}},
		map[string]any{"text": "I will fix my arguments."},
	)
	c := newCLI(t)
	f := parseFinal(t, c.ok("run", "--preset", "standard", "--workspace", workspace(t), "--model", "script:"+script, "--output", "json", "read"))
	if f.Reason != session.ReasonCompleted {
		t.Fatalf("the turn did not go on after the bad call: %+v", f)
	}
	events := c.show(f.SessionID).Events
	call := sessiontest.Decode[session.ToolCall](t, sessiontest.OfType(events, session.TypeToolCall)[0])
	if call.Arguments != `{"file_path": "main.go",` {
		t.Fatalf("the raw arguments were not kept verbatim: %q", call.Arguments)
	}
	r := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(events, session.TypeToolResult)[0])
	if !r.IsError || r.Error == nil || r.Error.Code != "INVALID_ARGS" || !strings.HasPrefix(r.Content[0].Text, "Error: ") {
		t.Fatalf("result = %+v", r)
	}
}
