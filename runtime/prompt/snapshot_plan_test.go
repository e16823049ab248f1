package prompt

import (
	"strings"
	"testing"
)

func TestTheSnapshotSaysWhilePlanModeIsOn(t *testing.T) {
	off := Context{Sandbox: "workspace-write", Workspace: "/w"}
	on := off
	on.Plan = true
	if strings.Contains(off.Text(), "Plan mode") {
		t.Fatalf("off: %q", off.Text())
	}
	if !strings.Contains(on.Text(), "Plan mode: on") || !strings.Contains(on.Text(), "exit_plan_mode") {
		t.Fatalf("on: %q", on.Text())
	}
	if on.Text() == off.Text() {
		t.Fatal("switching plan mode must change the snapshot, so a new one is sent")
	}
}
