package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/internal/sharedtest"
	"github.com/ptc-dev/ptc/sandbox/hostexec"
)

// probeServer is a stdio MCP server on Python's standard library alone:
// its one tool reports what the server can see and do.
const probeServer = `import json, os, sys
def send(v):
    sys.stdout.write(json.dumps(v) + "\n"); sys.stdout.flush()
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    m, i = msg["method"], msg["id"]
    if m == "initialize":
        send({"jsonrpc": "2.0", "id": i, "result": {"protocolVersion": msg["params"]["protocolVersion"],
              "capabilities": {"tools": {}}, "serverInfo": {"name": "probe", "version": "1"}}})
    elif m == "tools/list":
        send({"jsonrpc": "2.0", "id": i, "result": {"tools": [{"name": "probe", "inputSchema": {"type": "object"}}]}})
    elif m == "tools/call":
        facts = {"env": sorted(os.environ), "key": os.environ.get("DEEPSEEK_API_KEY", ""),
                 "hostname": open("/proc/sys/kernel/hostname").read().strip()}
        try:
            open("written-by-the-server", "w").write("x")
            facts["wrote"] = True
        except OSError:
            facts["wrote"] = False
        send({"jsonrpc": "2.0", "id": i, "result": {"content": [{"type": "text", "text": json.dumps(facts)}]}})
    else:
        send({"jsonrpc": "2.0", "id": i, "error": {"code": -32601, "message": "no such method"}})
`

func TestAProjectMCPServerRunsConfinedAndAsksAgainAfterItsScriptChanged(t *testing.T) {
	sharedtest.Tools(t, "python3")
	if err := hostexec.NewRunner(hostexec.Config{}).Available(); err != nil {
		sharedtest.Unavailable(t, "bubblewrap: %v", err)
	}
	c := newCLI(t, "DEEPSEEK_API_KEY=sk-canary-21")
	ws := workspace(t)
	script := filepath.Join(ws, "tools", "mcp_server.py")
	must(t, os.MkdirAll(filepath.Dir(script), 0o755))
	must(t, os.WriteFile(script, []byte(probeServer), 0o644))
	writeJSON(t, filepath.Join(ws, ".mcp.json"), map[string]any{"mcpServers": map[string]any{
		"probe":        map[string]any{"command": "python3", "args": []string{"tools/mcp_server.py"}, "env": map[string]string{"PROBE_MARK": "set"}},
		"red\x1b[31mx": map[string]any{"command": "true"},
	}})

	list, _, _ := c.headlessRun("mcp", "list", "--workspace", ws)
	if strings.ContainsRune(list, 0x1b) || !strings.Contains(list, "env PROBE_MARK=set") || !strings.Contains(list, "runs confined") {
		t.Fatalf("ptc mcp list:\n%q", list)
	}
	approved, _, code := c.headlessRun("mcp", "approve", "--workspace", ws, "probe")
	if code != 0 || !strings.Contains(approved, "tools/mcp_server.py") || !strings.Contains(approved, "sha256") {
		t.Fatalf("approve (%d) should show the pinned script:\n%s", code, approved)
	}

	probe := func() map[string]any {
		t.Helper()
		sc := writeScript(t, call("run_code", map[string]any{"code": "return await tools.mcp__probe__probe({})", "description": "probe"}), map[string]any{"text": "done"})
		out, errs, code := c.headlessRun("run", "--workspace", ws, "--model", "script:"+sc, "--preset", "ptc", "--approval", "never", "--output", "json", "go")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		for _, e := range c.show(parseFinal(t, out).SessionID).Events {
			if e.Type != "tool/result" {
				continue
			}
			var r struct{ Content []struct{ Text string } }
			json.Unmarshal(e.Data, &r)
			var facts map[string]any
			if err := json.Unmarshal([]byte(r.Content[0].Text), &facts); err != nil {
				t.Fatalf("the probe's result: %s (stderr %s)", r.Content[0].Text, errs)
			}
			return facts
		}
		t.Fatalf("no result: %s", errs)
		return nil
	}
	facts := probe()
	env, _ := json.Marshal(facts["env"])
	switch {
	case facts["key"] != "" || strings.Contains(string(env), "DEEPSEEK"):
		t.Errorf("ptc's key reached the server: %v", facts)
	case !strings.Contains(string(env), "PROBE_MARK"):
		t.Errorf("the variable the definition lists is missing: %s", env)
	case facts["hostname"] != "ptc-sandbox":
		t.Errorf("the server did not run in the sandbox: %v", facts)
	case facts["wrote"] != false:
		t.Errorf("the server wrote the workspace: %v", facts)
	}
	if _, err := os.Stat(filepath.Join(ws, "written-by-the-server")); err == nil {
		t.Error("the server's write landed in the workspace")
	}

	// An ordinary write swaps the approved script.
	must(t, os.WriteFile(script, []byte(probeServer+"\n# swapped after approval\n"), 0o644))
	out, errs, _ := c.headlessRun("tools", "--workspace", ws)
	if strings.Contains(out, "mcp__probe__") || !strings.Contains(errs, "MCP server probe (from .mcp.json) was not started") {
		t.Fatalf("a swapped script started without a new approval:\nstdout %s\nstderr %s", out, errs)
	}
	if again, _, _ := c.headlessRun("mcp", "list", "--workspace", ws); !strings.Contains(again, "probe  [project, stdio] needs approval") {
		t.Errorf("ptc mcp list after the swap:\n%s", again)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
