package sandbox

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

func TestAGuestTrapIsAFailedCommandWithItsOutput(t *testing.T) {
	h := probe(t)
	ws, _ := sandboxDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	o, err := h.Run(ctx, ws, WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: "env\npanic boom"})
	if err != nil {
		t.Fatalf("a trap in a shell command must be an Outcome, got %v", err)
	}
	if o.ExitCode != ExitCrashed || !strings.HasPrefix(string(o.Stdout), "ENV ") || !strings.Contains(o.Note, "crashed") {
		t.Errorf("got exit %d stdout %q note %q", o.ExitCode, o.Stdout, o.Note)
	}
	if o, err := h.Run(ctx, ws, WorkspaceWrite, proto.Request{Op: proto.OpShell, Command: "exit 3"}); err != nil || o.ExitCode != 3 {
		t.Errorf("the host must go on after a trap: %d %v", o.ExitCode, err)
	}
}
