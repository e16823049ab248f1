package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ptc-dev/ptc/internal/sharedtest"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// npmServers finds the MCP servers scripts/test.sh installs from npm into
// .tools/node, and node itself. Missing, the test skips (fails under
// PTC_REQUIRE_TOOLS=1).
func npmServers(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(sharedtest.ModuleRoot(t), ".tools", "node", "node_modules")
	var missing []string
	for _, p := range []string{".bin/mcp-server-memory", ".bin/mcp-server-filesystem", ".bin/mcp-server-everything", "@modelcontextprotocol/sdk/package.json"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			missing = append(missing, p)
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing = append(missing, "node")
	}
	if len(missing) > 0 {
		sharedtest.Unavailable(t, "the npm MCP servers are not installed (run scripts/test.sh): missing %s", strings.Join(missing, ", "))
	}
	return dir
}

// crashyServer is a stdio MCP server on the npm SDK whose crash tool
// kills it, for the reconnection test.
func crashyServer(t *testing.T, modules string) string {
	t.Helper()
	sdk := filepath.Join(modules, "@modelcontextprotocol", "sdk", "dist", "esm")
	src := `import { Server } from "` + sdk + `/server/index.js";
import { StdioServerTransport } from "` + sdk + `/server/stdio.js";
import { ListToolsRequestSchema, CallToolRequestSchema } from "` + sdk + `/types.js";
const s = new Server({name: "crashy", version: "1"}, {capabilities: {tools: {}}});
s.setRequestHandler(ListToolsRequestSchema, async () => ({tools: [
  {name: "echo", inputSchema: {type: "object", properties: {text: {type: "string"}}, required: ["text"]}},
  {name: "crash", inputSchema: {type: "object"}}]}));
s.setRequestHandler(CallToolRequestSchema, async (req) => {
  if (req.params.name === "crash") { console.error("crashing on purpose"); process.exit(1); }
  return {content: [{type: "text", text: "echo: " + req.params.arguments.text}]};
});
await s.connect(new StdioServerTransport());
console.error("crashy started", process.pid);
`
	p := filepath.Join(t.TempDir(), "crashy.mjs")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// headless detaches ptc from any terminal, so a project server's approval
// question cannot reach one (it must be skipped instead).
func headless(cmd *exec.Cmd) *exec.Cmd {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return cmd
}

func (c *cli) headlessRun(args ...string) (string, string, int) {
	c.t.Helper()
	return c.collect(headless(c.command(args...)))
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// npmConfig is an MCP configuration of the three reference servers.
func npmConfig(t *testing.T, modules, ws, memFile string) map[string]any {
	bin := filepath.Join(modules, ".bin")
	return map[string]any{"mcpServers": map[string]any{
		"memory":     map[string]any{"command": filepath.Join(bin, "mcp-server-memory"), "env": map[string]string{"MEMORY_FILE_PATH": memFile}},
		"fs":         map[string]any{"command": filepath.Join(bin, "mcp-server-filesystem"), "args": []string{ws}},
		"everything": map[string]any{"command": filepath.Join(bin, "mcp-server-everything"), "args": []string{"stdio"}},
	}}
}

func TestMCPServersFromNpmThroughTheCLI(t *testing.T) {
	modules := npmServers(t)
	c := newCLI(t)
	ws := workspace(t)
	writeJSON(t, filepath.Join(c.home, "mcp.json"), npmConfig(t, modules, ws, filepath.Join(c.home, "memory.jsonl")))

	t.Run("ptc tools lists every server's tools with the server", func(t *testing.T) {
		out, _, code := c.headlessRun("tools", "--workspace", ws, "--output", "json")
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
		var v struct {
			Program []struct {
				Name, Server string
			} `json:"program"`
			MCPServers []struct{ Name, State string } `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		per := map[string]int{}
		for _, p := range v.Program {
			if p.Server != "" {
				per[p.Server]++
				if !strings.HasPrefix(p.Name, "mcp__"+p.Server+"__") {
					t.Errorf("tool %s of server %s", p.Name, p.Server)
				}
			}
		}
		if per["memory"] != 9 || per["fs"] < 10 || per["everything"] < 5 {
			t.Errorf("tools per server: %v", per)
		}
		for _, s := range v.MCPServers {
			if s.State != "up" {
				t.Errorf("server %s is %s", s.Name, s.State)
			}
		}
		text, _, _ := c.headlessRun("tools", "--workspace", ws, "--preset", "standard")
		wire := text[:strings.Index(text, "MCP servers")]
		if !strings.Contains(wire, "mcp__memory__read_graph()  [MCP server memory]") {
			t.Errorf("under standard the MCP tools are wire tools:\n%s", text)
		}
	})

	t.Run("a ptc program gets typed values from memory and filesystem tools", func(t *testing.T) {
		program := `
const made = await tools.mcp__memory__create_entities({entities: [
  {name: "ptc", entityType: "project", observations: ["written in Go"]},
  {name: "wazero", entityType: "library", observations: ["runs wasm"]}]});
const back = await tools.mcp__memory__open_nodes({names: ["ptc", "wazero"]});
const dir = await tools.mcp__fs__list_directory({path: ` + jsString(ws) + `});
console.log("created=" + made.entities.map(e => e.name).join(","));
console.log("types=" + back.entities.map(e => e.name + ":" + e.entityType).join(","));
console.log("first=" + back.entities[0].observations[0]);
console.log("listing=" + typeof dir.content + ":" + dir.content.includes("[FILE] go.mod"));
return back.entities.length;`
		script := writeScript(t, call("run_code", map[string]any{"code": program, "description": "memory and files"}), map[string]any{"text": "done"})
		out, errs, code := c.headlessRun("run", "--workspace", ws, "--model", "script:"+script, "--preset", "ptc", "--approval", "never", "--output", "json", "go")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		events := c.show(parseFinal(t, out).SessionID).Events
		var result string
		var dispatched []string
		for _, e := range events {
			switch e.Type {
			case "tool/result":
				var r struct{ Content []struct{ Text string } }
				json.Unmarshal(e.Data, &r)
				result = r.Content[0].Text
			case "tool/ptc-dispatch":
				var d struct {
					SubCallID, Name string
					IsError         bool
				}
				json.Unmarshal(e.Data, &d)
				if d.IsError {
					t.Errorf("dispatch %s failed", d.Name)
				}
				dispatched = append(dispatched, d.SubCallID+" "+d.Name)
			}
		}
		for _, w := range []string{"created=ptc,wazero", "types=ptc:project,wazero:library", "first=written in Go", "listing=string:true"} {
			if !strings.Contains(result, w) {
				t.Errorf("the program's output lacks %q:\n%s", w, result)
			}
		}
		want := "call_1:ptc:1 mcp__memory__create_entities|call_1:ptc:2 mcp__memory__open_nodes|call_1:ptc:3 mcp__fs__list_directory"
		if strings.Join(dispatched, "|") != strings.ReplaceAll(want, "call_1", dispatchRoot(dispatched)) {
			t.Errorf("dispatch events: %v", dispatched)
		}
	})

	t.Run("ptc sdk --mcp writes an SDK that compiles under tsc --strict", func(t *testing.T) {
		tsc := filepath.Join(modules, ".bin", "tsc")
		if _, err := os.Stat(tsc); err != nil {
			t.Skip("tsc is not installed")
		}
		dir := t.TempDir()
		bin := filepath.Join(modules, ".bin")
		for name, cmdline := range map[string]string{
			"memory":     shellQuote(filepath.Join(bin, "mcp-server-memory")),
			"fs":         shellQuote(filepath.Join(bin, "mcp-server-filesystem")) + " " + shellQuote(ws),
			"everything": shellQuote(filepath.Join(bin, "mcp-server-everything")) + " stdio",
		} {
			sdk := c.ok("sdk", "--mcp", cmdline, "--mcp-name", name)
			if !strings.Contains(sdk, "mcp__"+name+"__") || !strings.Contains(sdk, "type Open =") {
				t.Fatalf("%s SDK:\n%s", name, sdk)
			}
			sub := filepath.Join(dir, name)
			os.MkdirAll(sub, 0o755)
			os.WriteFile(filepath.Join(sub, "sdk.d.ts"), []byte(sdk), 0o644)
			os.WriteFile(filepath.Join(sub, "use.ts"), []byte(`async function f() { const r = await tools.mcp__`+map[string]string{
				"memory":     `memory__read_graph(); const n: string = r.entities[0].name; return n; }`,
				"fs":         `fs__list_directory({path: "."}); const s: string = r.content; return s; }`,
				"everything": `everything__echo({message: "hi"}); return r; }`}[name]+"\nexport {};\n"), 0o644)
			tc := exec.Command(tsc, "--strict", "--noEmit", "--target", "es2022", "--lib", "es2022", "sdk.d.ts", "use.ts")
			tc.Dir = sub
			if out, err := tc.CombinedOutput(); err != nil {
				t.Errorf("%s: tsc: %v\n%s", name, err, out)
			}
		}
	})
}

func TestACrashingMCPServerIsAToolErrorAndComesBack(t *testing.T) {
	modules := npmServers(t)
	c := newCLI(t)
	ws := workspace(t)
	writeJSON(t, filepath.Join(c.home, "mcp.json"), map[string]any{"mcpServers": map[string]any{
		"crashy": map[string]any{"command": "node", "args": []string{crashyServer(t, modules)}}}})
	program := `
console.log(await tools.mcp__crashy__echo({text: "before"}));
try { await tools.mcp__crashy__crash({}); console.log("no error?"); }
catch (e) { console.log("crash:", e instanceof ToolCallError, e.code); }
console.log(await tools.mcp__crashy__echo({text: "after"}));`
	script := writeScript(t, call("run_code", map[string]any{"code": program, "description": "crash"}), map[string]any{"text": "done"})
	out, errs, code := c.headlessRun("run", "--workspace", ws, "--model", "script:"+script, "--approval", "never", "go")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, w := range []string{"echo: before", "crash: true TOOL_OUTCOME_UNKNOWN", "echo: after"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if !strings.Contains(errs, "MCP server crashy stopped") || strings.Contains(errs, "crashing on purpose") {
		t.Errorf("stderr should carry ptc's notice, not the server's stderr:\n%s", errs)
	}
	log, _ := os.ReadFile(filepath.Join(c.home, "logs", "mcp", "crashy.log"))
	if strings.Count(string(log), "crashy started") != 2 || !strings.Contains(string(log), "crashing on purpose") {
		t.Errorf("the server's log should show the crash and both starts:\n%s", log)
	}
}

func TestAProjectMCPServerNeedsApprovalToStart(t *testing.T) {
	modules := npmServers(t)
	c := newCLI(t)
	ws := workspace(t)
	writeJSON(t, filepath.Join(ws, ".mcp.json"), map[string]any{"mcpServers": map[string]any{
		"crashy": map[string]any{"command": "node", "args": []string{crashyServer(t, modules)}, "sandbox": "unconfined"}}})

	out, errs, _ := c.headlessRun("tools", "--workspace", ws)
	if strings.Contains(out, "mcp__crashy__") || !strings.Contains(errs, "MCP server crashy (from .mcp.json) was not started") {
		t.Fatalf("an unapproved project server must not start:\nstdout %s\nstderr %s", out, errs)
	}
	if _, err := os.Stat(filepath.Join(c.home, "logs", "mcp", "crashy.log")); err == nil {
		t.Fatal("the server left a log, so it ran")
	}
	list, _, _ := c.headlessRun("mcp", "list", "--workspace", ws)
	if !strings.Contains(list, "needs approval") {
		t.Errorf("ptc mcp list:\n%s", list)
	}
	if got, _, code := c.headlessRun("mcp", "approve", "--workspace", ws, "crashy"); code != 0 || !strings.Contains(got, "approved crashy") {
		t.Fatalf("approve: %d %s", code, got)
	}
	out, _, _ = c.headlessRun("tools", "--workspace", ws)
	if !strings.Contains(out, "mcp__crashy__echo") {
		t.Fatalf("an approved project server starts:\n%s", out)
	}
	cfg := map[string]any{"mcpServers": map[string]any{"crashy": map[string]any{"command": "node", "args": []string{crashyServer(t, modules), "--changed"}, "sandbox": "unconfined"}}}
	writeJSON(t, filepath.Join(ws, ".mcp.json"), cfg)
	if out, _, _ = c.headlessRun("tools", "--workspace", ws); strings.Contains(out, "mcp__crashy__") {
		t.Fatal("a changed project server needs approval again")
	}
}

// dispatchRoot is the run_code call id the sub-call ids start with.
func dispatchRoot(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	root, _, _ := strings.Cut(ids[0], ":")
	return root
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestAnEscalationAndAnMCPToolApprovalAreDeniedAlike is issue 20's check
// through the CLI: under --approval never a bash escalation to
// danger-full-access and a call of an MCP tool configured "approval":
// "ask" fail with the same code and leave the same audit fields.
func TestAnEscalationAndAnMCPToolApprovalAreDeniedAlike(t *testing.T) {
	modules := npmServers(t)
	c := newCLI(t)
	ws := workspace(t)
	writeJSON(t, filepath.Join(c.home, "mcp.json"), map[string]any{"mcpServers": map[string]any{
		"memory": map[string]any{"command": filepath.Join(modules, ".bin", "mcp-server-memory"),
			"env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(c.home, "memory.jsonl")}, "approval": "ask"},
	}})
	script := writeScript(t,
		map[string]any{"tool_calls": []map[string]any{
			{"name": "bash", "arguments": map[string]any{"command": "uname", "description": "kernel",
				"sandbox_permissions": "danger-full-access", "justification": "need the host"}},
			{"name": "mcp__memory__read_graph", "arguments": map[string]any{}},
		}},
		map[string]any{"text": "both denied"},
	)
	out, errs, code := c.headlessRun("run", "--preset", "standard", "--workspace", ws, "--approval", "never", "--model", "script:"+script, "--output", "json", "go")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	events := c.show(parseFinal(t, out).SessionID).Events
	results := sessiontest.OfType(events, session.TypeToolResult)
	decided := sessiontest.OfType(events, session.TypeApprovalDecided)
	if len(results) != 2 || len(decided) != 2 {
		t.Fatalf("%d results, %d decisions", len(results), len(decided))
	}
	var audit []session.ApprovalDecided
	for i := range 2 {
		r := sessiontest.Decode[session.ToolResult](t, results[i])
		if r.Error == nil || r.Error.Code != "DENIED" {
			t.Fatalf("%s: %+v, want DENIED", r.Name, r.Error)
		}
		d := sessiontest.Decode[session.ApprovalDecided](t, decided[i])
		d.CallID, d.Name = "", ""
		audit = append(audit, d)
	}
	if audit[0] != audit[1] || audit[0].By != "policy" || audit[0].Decision != "deny" {
		t.Fatalf("the audit fields differ: %+v", audit)
	}
}
