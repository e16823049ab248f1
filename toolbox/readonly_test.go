package toolbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
)

// TestAReadOnlySessionRunsEveryToolReadOnly drives the tools through the
// pipeline with Env.ReadOnly switched on and off, as plan mode does.
func TestAReadOnlySessionRunsEveryToolReadOnly(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var planning atomic.Bool
	planning.Store(true)
	env := &tools.Env{SessionID: "s1", Workspace: ws, ReadOnly: func() string {
		if planning.Load() {
			return "plan mode is on"
		}
		return ""
	}}
	sb := NewSandbox(testHost(), SandboxConfig{Workspace: ws, Mode: sandbox.WorkspaceWrite})
	var all []tools.Tool
	for _, name := range []string{"bash", "read", "write", "edit", "glob", "grep", "shell", "str_replace_editor"} {
		tool, _ := sb.Tool(name)
		all = append(all, tool)
	}
	reg, err := tools.NewRegistry(tools.PresentNative, all...)
	if err != nil {
		t.Fatal(err)
	}
	r := tools.NewRunner(reg, tools.RunnerConfig{Approvals: tools.NewApprovals(tools.PolicyNever), Env: env})
	run := func(name, args string) tools.Result {
		return r.Dispatch(context.Background(), tools.Call{ID: "c", Name: name, Raw: args})
	}
	for _, c := range []struct{ name, tool, args string }{
		{"write is refused", "write", `{"file_path":"b.txt","content":"x"}`},
		{"edit is refused", "edit", `{"file_path":"a.txt","old_string":"alpha","new_string":"beta"}`},
		{"the editor's create is refused", "str_replace_editor", `{"command":"create","path":"c.txt","file_text":"x"}`},
		{"bash asking for a wider sandbox is refused", "bash", `{"command":"touch d","description":"touch","sandbox_permissions":"danger-full-access","justification":"need it"}`},
	} {
		t.Run("while planning, "+c.name, func(t *testing.T) {
			res := run(c.tool, c.args)
			if !res.IsError || res.Error.Code != tools.CodeDenied || !strings.Contains(res.Content, "plan mode is on") {
				t.Fatalf("%q", res.Content)
			}
		})
	}
	t.Run("while planning, a mutating shell command fails on the read-only workspace", func(t *testing.T) {
		for _, tool := range []string{"bash", "shell"} {
			args := `{"command":"echo x > e.txt; rm a.txt","description":"write"}`
			if tool == "shell" {
				args = `{"command":"echo x > e.txt; rm a.txt"}`
			}
			res := run(tool, args)
			if !strings.Contains(strings.ToLower(res.Content), "read-only") || !strings.Contains(res.Content, "plan mode is on") {
				t.Fatalf("%s: %q", tool, res.Content)
			}
		}
		if _, err := os.Stat(filepath.Join(ws, "e.txt")); err == nil {
			t.Fatal("e.txt was written")
		}
		if _, err := os.Stat(filepath.Join(ws, "a.txt")); err != nil {
			t.Fatal("a.txt was removed")
		}
	})
	t.Run("while planning, reading and searching work", func(t *testing.T) {
		for _, c := range [][2]string{{"read", `{"file_path":"a.txt"}`}, {"grep", `{"pattern":"alpha"}`}, {"glob", `{"pattern":"*.txt"}`},
			{"bash", `{"command":"cat a.txt","description":"cat"}`}, {"str_replace_editor", `{"command":"view","path":"a.txt"}`}} {
			if res := run(c[0], c[1]); res.IsError || !strings.Contains(res.Content, "a") {
				t.Fatalf("%s: %q", c[0], res.Content)
			}
		}
	})
	t.Run("once planning is over, the same calls write", func(t *testing.T) {
		planning.Store(false)
		if res := run("bash", `{"command":"echo x > e.txt","description":"write"}`); res.IsError {
			t.Fatalf("%q", res.Content)
		}
		if res := run("shell", `{"command":"echo y > f.txt"}`); res.IsError {
			t.Fatalf("%q", res.Content)
		}
		if res := run("write", `{"file_path":"b.txt","content":"x"}`); res.IsError {
			t.Fatalf("%q", res.Content)
		}
		for _, f := range []string{"e.txt", "f.txt", "b.txt"} {
			if _, err := os.Stat(filepath.Join(ws, f)); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
	})
}
