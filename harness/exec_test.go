package harness_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/ptc"
	"github.com/ptc-dev/ptc/sandbox"
)

func TestExecRunsAProgramAgainstThePtcTools(t *testing.T) {
	home := newHome(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("nested calls reach the workspace through the tools", func(t *testing.T) {
		o, _, err := home.Exec(context.Background(), harness.ExecOptions{Workspace: ws, Mode: sandbox.WorkspaceWrite,
			Code: `const r = await tools.read({ file_path: "a.txt" }); return r.total_lines`})
		if err != nil || !o.OK() || string(o.Result) != "2" {
			t.Fatalf("%v %+v", err, o)
		}
	})
	t.Run("run_code itself is not among the program's tools", func(t *testing.T) {
		o, _, err := home.Exec(context.Background(), harness.ExecOptions{Workspace: ws, Mode: sandbox.ReadOnly,
			Code: `await tools.run_code({ code: "return 1", description: "nested" })`})
		if err != nil || o.OK() || o.Failure.Kind != ptc.KindUnknownTool {
			t.Fatalf("%v %+v", err, o.Failure)
		}
	})
	t.Run("an escalation is denied, as nobody can be asked", func(t *testing.T) {
		o, _, err := home.Exec(context.Background(), harness.ExecOptions{Workspace: ws, Mode: sandbox.ReadOnly,
			Code: `try { await tools.bash({ command: "true", description: "x", sandbox_permissions: "danger-full-access", justification: "test" }) } catch (e) { return e.code }`})
		if err != nil || string(o.Result) != `"DENIED"` {
			t.Fatalf("%v %s", err, o.Result)
		}
	})
}

func TestRunShellRunsOneCommandAsTheBashToolDoes(t *testing.T) {
	ws := t.TempDir()
	o, err := harness.RunShell(context.Background(), harness.ShellOptions{Workspace: ws, Mode: sandbox.WorkspaceWrite, Command: "echo hi > f && cat f && exit 3"})
	if err != nil || o.ExitCode != 3 || strings.TrimSpace(string(o.Stdout)) != "hi" {
		t.Fatalf("%v %+v", err, o)
	}
}
