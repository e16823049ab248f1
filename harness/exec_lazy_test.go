package harness

import (
	"context"
	"testing"

	"github.com/ptc-dev/ptc/sandbox"
)

// A program pays for the guest only when a call needs it: `return 1` and
// a glob (run on the host) leave it unloaded, a bash call loads it.
func TestExecLoadsTheGuestOnlyForACallThatNeedsIt(t *testing.T) {
	h, err := OpenHome(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ws := t.TempDir()
	run := func(code string) {
		t.Helper()
		o, _, err := h.Exec(context.Background(), ExecOptions{Workspace: ws, Mode: sandbox.WorkspaceWrite, Code: code})
		if err != nil || !o.OK() {
			t.Fatalf("%v %+v", err, o)
		}
	}
	run(`return 1;`)
	run(`return (await tools.glob({ pattern: "*" })).total`)
	if h.host == nil || h.host.Started() {
		t.Fatalf("the guest was loaded for a program that needed none (host %v)", h.host)
	}
	run(`return (await tools.bash({ command: "echo hi", description: "x" })).stdout`)
	if !h.host.Started() {
		t.Fatal("a bash call did not load the guest")
	}
}
