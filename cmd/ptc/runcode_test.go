package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// TestHostileProgramsFailTheirCallAndTheTurnGoesOn runs one ptc turn whose
// programs each hit a class of hostile behaviour (an engine crash, a
// wedging getter, a huge native allocation, a native loop past the
// budget, Go debris in an error): each run_code call must come back as a
// CODE_RUN_FAILED result of the right kind, the process must live on to
// the model's final answer, and its memory must stay small.
func TestHostileProgramsFailTheirCallAndTheTurnGoesOn(t *testing.T) {
	// A program that must end by timeout gets a short budget; the others a
	// budget far above their unloaded time (an engine's start counts against
	// it, and a loaded machine is slow): the kind is what is checked.
	programs := []struct {
		kind, code string
		budgetMs   int
	}{
		{"exception", "const a: any[] = [1];\na.push(a);\nreturn a.flat(Infinity).length", 20000},
		{"exception", "throw { get message() { for (;;) {} } }", 20000},
		{"memory-limit", "return 'x'.repeat(3e9).length", 20000},
		{"timeout", "return Array.prototype.indexOf.call({ length: 2 ** 53 }, 1)", 1500},
		{"exception", "Object.setPrototypeOf(tools, Object.create(null))", 20000},
	}
	var replies []map[string]any
	for _, p := range programs {
		replies = append(replies, call("run_code", map[string]any{"description": "hostile", "code": p.code, "timeout_ms": p.budgetMs}))
	}
	replies = append(replies, map[string]any{"text": "survived"})
	script := writeScript(t, replies...)

	c := newCLI(t)
	cmd := c.command("run", "--preset", "ptc", "--workspace", workspace(t), "--model", "script:"+script, "--output", "json", "go")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("ptc run: %v\nstderr: %s", err, errb.String())
	}
	f := parseFinal(t, out.String())
	if f.Reason != session.ReasonCompleted || f.Text != "survived" {
		t.Fatalf("the turn did not go on to the answer: %+v", f)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > 1500<<10 {
		t.Fatalf("ptc's peak RSS was %d MiB", ru.Maxrss>>10)
	}
	results := sessiontest.OfType(c.show(f.SessionID).Events, session.TypeToolResult)
	if len(results) != len(programs) {
		t.Fatalf("%d tool results, want %d", len(results), len(programs))
	}
	for i, p := range programs {
		r := sessiontest.Decode[session.ToolResult](t, results[i])
		if !r.IsError || r.Error == nil || r.Error.Code != "CODE_RUN_FAILED" ||
			!strings.Contains(r.Error.Message, "code run failed ("+p.kind+")") {
			b, _ := json.Marshal(r)
			t.Fatalf("program %d: want a CODE_RUN_FAILED %s result, got %.600s", i, p.kind, b)
		}
		if strings.Contains(r.Error.Message, "%!") || strings.Contains(r.Error.Message, "goroutine") {
			t.Fatalf("program %d: Go internals in %q", i, r.Error.Message)
		}
	}
}

// TestExecJSONKeepsTheVisibleCap checks `ptc exec --output json` on a
// program that floods console.log and on one that returns a value nested
// deeper than JSON readers take: the output is one JSON document within
// about 1 MiB, and the flood is saved and pointed to.
func TestExecJSONKeepsTheVisibleCap(t *testing.T) {
	c := newCLI(t)
	ws := workspace(t)
	cases := []struct{ name, code, want string }{
		{"a flood of lines", "for (let i = 0; i < 20000; i++) console.log('line ' + i + ' ' + 'y'.repeat(200));\nreturn 'done'", "saved at"},
		{"a 12 000-deep result", "let o: any = {};\nfor (let i = 0; i < 12000; i++) o = { o };\nreturn o", "nests 12001 levels deep"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			prog := filepath.Join(t.TempDir(), "p.ts")
			if err := os.WriteFile(prog, []byte(tc.code), 0o644); err != nil {
				t.Fatal(err)
			}
			out := c.ok("exec", "--workspace", ws, "--output", "json", prog)
			var j struct {
				OK     bool            `json:"ok"`
				Logs   []string        `json:"logs"`
				Result json.RawMessage `json:"result"`
			}
			if err := json.Unmarshal([]byte(out), &j); err != nil || !j.OK {
				t.Fatalf("not one successful JSON document (%v): %.300s", err, out)
			}
			if len(out) > 1100<<10 {
				t.Fatalf("%d bytes printed", len(out))
			}
			if !strings.Contains(strings.Join(j.Logs, "\n")+string(j.Result), tc.want) {
				t.Fatalf("no %q in %.300s", tc.want, out)
			}
		})
	}
}
