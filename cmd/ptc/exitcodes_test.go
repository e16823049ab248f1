package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

// ptc run's exit codes are distinct per outcome, as README and
// `ptc run --help` say: 0 completed, 1 failed, 2 usage, 3 max-steps,
// 130 interrupted.
func TestRunExitCodes(t *testing.T) {
	c := newCLI(t, "PTC_TEST_TOOLS=1")
	ws := t.TempDir()
	script := func(replies ...any) string {
		path := filepath.Join(t.TempDir(), "s.json")
		writeJSON(t, path, map[string]any{"replies": replies})
		return "script:" + path
	}
	sleep := func(ms int) map[string]any {
		return map[string]any{"tool_calls": []any{map[string]any{"name": "test_sleep", "arguments": map[string]any{"ms": ms}}}}
	}
	done := map[string]any{"text": "done"}
	failed := map[string]any{"error": map[string]any{"kind": "auth", "status": 401, "message": "bad key"}}
	base := []string{"run", "--workspace", ws}
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
		// interrupt sends SIGINT once the tool call has started.
		interrupt bool
	}{
		{"completed", []string{"--model", script(sleep(1), done), "go"}, 0, "", false},
		{"the model fails", []string{"--model", script(failed), "go"}, 1, "bad key", false},
		{"an unknown flag", []string{"--bogus", "go"}, 2, "see `ptc run --help`", false},
		{"too many arguments", []string{"a", "b"}, 2, "see `ptc run --help`", false},
		{"a bad output format", []string{"--model", script(done), "--output", "yaml", "go"}, 2, `unknown output format "yaml"`, false},
		{"a bad sandbox mode", []string{"--model", script(done), "--sandbox", "nope", "go"}, 2, `unknown sandbox mode "nope"`, false},
		{"a bad approval policy", []string{"--model", script(done), "--approval", "maybe", "go"}, 2, `unknown approval policy "maybe"`, false},
		{"a negative step budget", []string{"--model", script(done), "--max-steps", "-1", "go"}, 2, "--max-steps must be 1 or more", false},
		{"no prompt", []string{"--model", script(done)}, 2, "no prompt", false},
		{"max-steps", []string{"--model", script(sleep(1), sleep(1), done), "--max-steps", "1", "go"}, 3, "turn ended: max-steps", false},
		{"interrupted mid-tool", []string{"--model", script(sleep(600000), done), "--output", "stream-json", "go"}, 130, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := c.command(append(base, tc.args...)...)
			cmd.Stdin = strings.NewReader("")
			var code int
			var errs string
			if tc.interrupt {
				code, errs = interruptAtToolCall(t, cmd)
			} else {
				_, errs, code = c.collect(cmd)
			}
			if code != tc.code || !strings.Contains(errs, tc.stderr) {
				t.Fatalf("exit %d (want %d), stderr %q (want it to hold %q)", code, tc.code, errs, tc.stderr)
			}
			if tc.code == 2 && strings.Count(errs, "\n") > 4 {
				t.Fatalf("a usage error printed more than a few lines:\n%s", errs)
			}
		})
	}
}

// interruptAtToolCall runs cmd (ptc run --output stream-json), sends it
// SIGINT when its first tool call starts, and returns its exit code and
// stderr.
func interruptAtToolCall(t *testing.T, cmd *exec.Cmd) (int, string) {
	t.Helper()
	var errb strings.Builder
	cmd.Stderr = &errb
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	started := false
	for !started && sc.Scan() {
		var ev session.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		started = ev.Type == session.TypeToolCall
	}
	if !started {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("ptc ended before its tool call started; stderr %s", errb.String())
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, stdout)
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), errb.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, errb.String()
}
