package sandbox

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/hostexec"
	"github.com/ptc-dev/ptc/sandbox/internal/testguest"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

var (
	hostProgOnce sync.Once
	hostProgHost *Host
)

// requireBwrap skips the test when bwrap cannot run here, and fails it
// under PTC_REQUIRE_TOOLS=1 (CI installs bubblewrap).
func requireBwrap(t testing.TB) {
	t.Helper()
	if err := hostexec.NewRunner(hostexec.Config{}).Available(); err != nil {
		if os.Getenv("PTC_REQUIRE_TOOLS") == "1" {
			t.Fatalf("bubblewrap is required: %v", err)
		}
		t.Skipf("host programs unavailable: %v", err)
	}
}

// hostProgs returns a process-wide Host with host programs on, running
// the shell guest built from the tree.
func hostProgs(t testing.TB) *Host {
	t.Helper()
	requireBwrap(t)
	wasm := testguest.Shell(t)
	hostProgOnce.Do(func() {
		hostProgHost = NewHost(Config{Guest: func() []byte { return wasm }, HostExec: &HostExec{}, WriteQuota: 64 << 20})
		hostProgHost.Warm()
	})
	return hostProgHost
}

func runIn(t *testing.T, h *Host, scope Scope, cmd string) Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	o, err := h.RunIn(ctx, scope, proto.Request{Op: proto.OpShell, Command: cmd})
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return o
}

func TestHostProgramsJoinTheGuestPipeline(t *testing.T) {
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	tests := []struct{ name, cmd, stdout string }{
		{"a host program writes straight to the output", "sh -c 'echo from-host'", "from-host\n"},
		{"its output feeds a guest builtin", "sh -c 'echo one; echo two' | grep tw | tr a-z A-Z", "TWO\n"},
		{"a guest builtin feeds it", "printf 'a\\nb\\n' | sh -c 'wc -l' | tr -d ' '", "2\n"},
		{"stderr joins stdout with 2>&1", "sh -c 'echo err >&2' 2>&1 | sed s/err/ERR/", "ERR\n"},
		{"its exit status is the command's", "sh -c 'exit 7'; echo $?", "7\n"},
		{"a loop's input is not eaten", "printf 'x\\ny\\n' | while read f; do sh -c 'echo got'; echo \"$f\"; done", "got\nx\ngot\ny\n"},
		{"a here-document is its stdin", "sh <<'EOF'\necho heredoc\nEOF", "heredoc\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite}, tt.cmd)
			if string(o.Stdout) != tt.stdout || o.ExitCode != 0 {
				t.Fatalf("stdout %q (want %q) exit %d stderr %q", o.Stdout, tt.stdout, o.ExitCode, o.Stderr)
			}
		})
	}
}

func TestAProgramThePresetDoesNotAllowStays127(t *testing.T) {
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	o := runIn(t, h, Scope{Workspace: ws, Mode: WorkspaceWrite}, "true-but-not-allowed")
	if o.ExitCode != 127 || !strings.Contains(string(o.Stderr), "not among the host programs") {
		t.Fatalf("exit %d stderr %q", o.ExitCode, o.Stderr)
	}
}
