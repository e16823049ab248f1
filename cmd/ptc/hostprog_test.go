package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/internal/sharedtest"
)

// needHostTools skips (or, under PTC_REQUIRE_TOOLS=1, fails) without
// bubblewrap and the toolchains the end-to-end host-program tests drive.
func needHostTools(t *testing.T) {
	t.Helper()
	sharedtest.Tools(t, "bwrap", "git", "go", "node", "npm", "python3")
	if out, err := exec.Command("bwrap", "--unshare-all", "--ro-bind", "/", "/", "true").CombinedOutput(); err != nil {
		sharedtest.Unavailable(t, "bwrap cannot run here: %v %s", err, out)
	}
}

// sharedCacheCLI is a cli whose sandboxed programs use the user's ptc
// sandbox directory, so with goProject's stable paths go test compiles
// the standard library once per checkout and test, not per run.
func sharedCacheCLI(t *testing.T) *cli {
	base, err := os.UserCacheDir()
	if err != nil {
		return newCLI(t)
	}
	return newCLI(t, "XDG_CACHE_HOME="+base)
}

// goProject is a Go module with a test, an npm package and a git
// repository holding both, in an emptied directory whose path (and so
// whose sandbox build cache) is the same on every run of the test.
func goProject(t *testing.T) string {
	t.Helper()
	ws := sharedtest.StableWorkspace(t, "go-project") // the tests using it run one after another
	files := map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.21\n",
		"m.go":         "package m\n\nfunc Two() int { return 2 }\n",
		"m_test.go":    "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif Two() != 2 {\n\t\tt.Fatal(\"FAIL two\")\n\t}\n}\n",
		"package.json": `{"name": "m", "version": "1.0.0", "scripts": {"test": "node t.js"}}`,
		"t.js":         "require('assert').strictEqual(2, 2); console.log('npm-ok');\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return ws
}

func TestPtcShRunsTheProjectsToolchainConfined(t *testing.T) {
	needHostTools(t)
	c := sharedCacheCLI(t)
	ws := goProject(t)
	cmd := "go test ./... 2>&1 | grep -c '^ok'; go vet ./... && echo vet-ok; npm test 2>&1 | grep npm-ok; " +
		"git status --short | wc -l | tr -d ' '; python3 -c 'print(7*6)'; node -e 'console.log(1)' | sed s/1/node-ok/"
	// A first run in a checkout compiles the standard library into the
	// workspace's cache: longer than ptc sh's default timeout on a busy machine.
	out, errs, code := c.run("sh", "--workspace", ws, "--timeout", "10m", cmd)
	if want := "1\nvet-ok\nnpm-ok\n0\n42\nnode-ok\n"; out != want || code != 0 {
		t.Fatalf("stdout %q (want %q) exit %d stderr %s", out, want, code, errs)
	}
	t.Run("read-only keeps the workspace read-only for host programs", func(t *testing.T) {
		_, errs, code := c.run("sh", "--workspace", ws, "--sandbox", "read-only", "python3 -c 'open(\"x\", \"w\")'")
		if code == 0 || !strings.Contains(errs, "Read-only file system") {
			t.Fatalf("exit %d stderr %s", code, errs)
		}
	})
	t.Run("git commit needs git-write", func(t *testing.T) {
		if _, _, code := c.run("sh", "--workspace", ws, "git -c user.name=a -c user.email=a@b commit -q --allow-empty -m x"); code == 0 {
			t.Fatal("a commit in workspace-write succeeded")
		}
		c.ok("sh", "--workspace", ws, "--sandbox", "git-write", "git -c user.name=a -c user.email=a@b commit -q --allow-empty -m x")
		if out := c.ok("sh", "--workspace", ws, "git log --oneline | wc -l | tr -d ' '"); out != "2\n" {
			t.Fatalf("log after the commit: %q", out)
		}
	})
}

func TestProgramsAndTheBashToolRunHostPrograms(t *testing.T) {
	needHostTools(t)
	c := sharedCacheCLI(t)
	ws := goProject(t)
	t.Run("tools.bash in ptc exec", func(t *testing.T) {
		prog := filepath.Join(t.TempDir(), "p.ts")
		body := `const r = await tools.bash({command: "go vet ./... && echo vet-ok; git status --short | wc -l | tr -d ' '", description: "vet"});
return r.stdout;`
		if err := os.WriteFile(prog, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if out := c.ok("exec", "--workspace", ws, prog); !strings.Contains(out, "vet-ok\n0") {
			t.Fatalf("got %q", out)
		}
	})
	t.Run("the bash tool in a session, and git-write denied under --approval never", func(t *testing.T) {
		script := map[string]any{"replies": []any{
			map[string]any{"tool_calls": []any{
				map[string]any{"name": "bash", "arguments": map[string]any{"command": "go test ./... 2>&1 | head -1 | cut -c1-2", "description": "test"}},
				map[string]any{"name": "bash", "arguments": map[string]any{"command": "git commit --allow-empty -m y", "description": "commit",
					"sandbox_permissions": "git-write", "justification": "commit the fix"}},
			}},
			map[string]any{"text": "done"},
		}}
		b, _ := json.Marshal(script)
		path := filepath.Join(t.TempDir(), "s.json")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out := c.ok("run", "--preset", "standard", "--workspace", ws, "--approval", "never", "--model", "script:"+path, "--output", "json", "go")
		var res struct {
			SessionID string `json:"session_id"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil || res.SessionID == "" {
			t.Fatalf("run output %q: %v", out, err)
		}
		dump := c.ok("session", "show", res.SessionID, "--output", "json")
		var sh shown
		if err := json.Unmarshal([]byte(dump), &sh); err != nil {
			t.Fatal(err)
		}
		var results []string
		for _, e := range sh.Events {
			if e.Type == "tool/result" || e.Type == "turn/end" {
				results = append(results, string(e.Data))
			}
		}
		all := strings.Join(results, "\n")
		if !strings.Contains(all, `"ok"`) || !strings.Contains(all, `"DENIED"`) {
			t.Fatalf("the session lacks the test result or the denial: %s", all)
		}
	})
}

func TestAKilledPtcShLeavesNothingBehind(t *testing.T) {
	needHostTools(t)
	c := newCLI(t)
	ws := goProject(t)
	tmp := t.TempDir()
	marker := fmt.Sprintf("61.%d", time.Now().UnixNano()%1000000)
	cmd := c.command("sh", "--workspace", ws, "echo guest > /tmp/g && python3 -c 'import time; open(\"/tmp/h\", \"w\").write(\"h\"); time.sleep("+marker+")'")
	cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the host program runs (its sandbox has a process with the
	// marker), then kill ptc outright.
	deadline := time.Now().Add(time.Minute)
	for !processWith("python3", marker) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the host program never started")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	for deadline = time.Now().Add(10 * time.Second); processWith("python3", marker); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the host program outlived the killed ptc")
		}
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Fatalf("the killed ptc left %v in its TMPDIR", entries)
	}
}

// processWith reports whether a process runs program (its argv[0]) with
// s in its command line.
func processWith(program, s string) bool {
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err == nil && strings.HasPrefix(string(b), program+"\x00") && strings.Contains(string(b), s) {
			return true
		}
	}
	return false
}
