package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ptc run's exit codes say how the turn ended, a refused connection
// fails at once saying so, and a retry line says why it retries.
func TestHeadlessExitCodesAndTransportFailures(t *testing.T) {
	c := newCLI(t, "PTC_TEST_RETRY_DELAY=1ms")
	ws := t.TempDir()
	t.Run("a turn ended by --max-steps exits 3", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "s.json")
		call := map[string]any{"tool_calls": []any{map[string]any{"name": "bash", "arguments": map[string]any{"command": "true", "description": "t"}}}}
		writeJSON(t, path, map[string]any{"replies": []any{call, call, map[string]any{"text": "never"}}})
		_, errs, code := c.run("run", "--preset", "standard", "--workspace", ws, "--model", "script:"+path, "--max-steps", "1", "go")
		if code != 3 || !strings.Contains(errs, "turn ended: max-steps") {
			t.Fatalf("exit %d (want 3), stderr %s", code, errs)
		}
	})
	t.Run("a refused connection fails at once, saying so", func(t *testing.T) {
		start := time.Now()
		_, errs, code := c.run("run", "--workspace", ws, "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "hi")
		took := time.Since(start)
		if code != 1 || !strings.Contains(errs, "the connection was refused") || strings.Contains(errs, "retrying") {
			t.Fatalf("exit %d, stderr %s", code, errs)
		}
		if took > 10*time.Second { // a hang guard: the retries it replaced took 15 s
			t.Fatalf("a refused connection took %v", took)
		}
	})
	t.Run("a retry line says why", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "s.json")
		writeJSON(t, path, map[string]any{"replies": []any{
			map[string]any{"error": map[string]any{"kind": "server", "status": 503, "message": "the pool is overloaded"}},
			map[string]any{"text": "fine now"},
		}})
		out, errs, code := c.run("run", "--workspace", ws, "--model", "script:"+path, "hi")
		if code != 0 || !strings.Contains(out, "fine now") || !strings.Contains(errs, "the pool is overloaded") || !strings.Contains(errs, "attempt 1") {
			t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errs)
		}
	})
	t.Run("a failed pre-flight and an interactive session with no prompt leave no session", func(t *testing.T) {
		c := newCLI(t)
		hello := "script:" + examplePath(t, "hello.json")
		for _, args := range [][]string{
			{"run", "--workspace", ws, "hi"}, // no key
			{"run", "--workspace", ws, "--model", "script:/nonexistent/s.json", "hi"},
			{"run", "--workspace", ws, "--model", hello, "--mcp-config", "/nonexistent/mcp.json", "hi"},
		} {
			if _, _, code := c.run(args...); code == 0 {
				t.Fatalf("ptc %v succeeded", args)
			}
		}
		line := c.command("--workspace", ws, "--model", hello)
		line.Stdin = strings.NewReader("")
		if _, errs, code := c.collect(line); code != 0 {
			t.Fatalf("line mode with no prompt: exit %d %s", code, errs)
		}
		if out := c.ok("sessions", "--output", "json"); strings.TrimSpace(out) != "[]" {
			t.Fatalf("sessions left behind: %s", out)
		}
	})
	t.Run("--output json carries the model, its cost and the calls per tool", func(t *testing.T) {
		c := newCLI(t)
		path := filepath.Join(t.TempDir(), "s.json")
		bash := map[string]any{"name": "bash", "arguments": map[string]any{"command": "true", "description": "t"}}
		writeJSON(t, path, map[string]any{"replies": []any{
			map[string]any{"tool_calls": []any{bash, bash, map[string]any{"name": "glob", "arguments": map[string]any{"pattern": "*"}}}},
			map[string]any{"text": "done"},
		}})
		write(t, filepath.Join(c.home, "models.yaml"), "models:\n  \"script:"+path+"\":\n    price: {input: 1.0, cache_hit: 0.1, output: 2.0}\n")
		out := c.ok("run", "--preset", "standard", "--workspace", ws, "--model", "script:"+path, "--output", "json", "go")
		var res struct {
			Model string `json:"model"`
			Usage struct {
				Cost float64 `json:"cost_usd"`
			} `json:"usage"`
			ToolCalls map[string]int `json:"tool_calls"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if res.Model != "script:"+path || res.Usage.Cost <= 0 || res.ToolCalls["bash"] != 2 || res.ToolCalls["glob"] != 1 {
			t.Fatalf("json result %s", out)
		}
	})
	t.Run("a bad flag is one line and where the help is; --max-steps -1 says what 0 means", func(t *testing.T) {
		_, errs, code := c.run("run", "--no-such-flag", "x")
		if code != 2 || strings.Count(errs, "\n") > 3 || !strings.Contains(errs, "see `ptc run --help`") {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		_, errs, code = c.run("run", "--max-steps", "-1", "x")
		if code == 0 || !strings.Contains(errs, "0, the default, takes the preset's budget") || strings.Contains(errs, "no limit") {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
	})
}
