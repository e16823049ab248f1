//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// openPTY returns a new pseudo-terminal's controller and its terminal.
func openPTY(t *testing.T) (*os.File, *os.File) {
	t.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	fd := int(ptm.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ptm.Close(); tty.Close() })
	return ptm, tty
}

// TestKeepPlanningReturnsTheUsersFeedback answers exit_plan_mode on the
// run's controlling terminal: first with feedback (the call fails with
// it, plan mode stays on), then by approving (plan mode ends).
func TestKeepPlanningReturnsTheUsersFeedback(t *testing.T) {
	c := newCLI(t)
	ws := t.TempDir()
	model := writeScript(t,
		call("exit_plan_mode", map[string]any{"plan": thePlan}),
		call("exit_plan_mode", map[string]any{"plan": thePlan + "4. Cover the error path\n"}),
		reply("starting the work"))
	ptm, tty := openPTY(t)
	cmd := c.command("run", "--plan", "--preset", "standard", "--workspace", ws, "--model", "script:"+model, "--output", "json", "plan the rename")
	cmd.ExtraFiles = []*os.File{tty} // fd 3 becomes the controlling terminal
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 3}
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	screen := &bytes.Buffer{}
	// waitFor reads the terminal until s was shown n times; a run that
	// ends first fails the test (go test's -timeout bounds a hung one).
	waitFor := func(s string, n int) {
		t.Helper()
		buf := make([]byte, 4096)
		for strings.Count(screen.String(), s) < n {
			select {
			case err := <-exited:
				t.Fatalf("the run ended (%v) before %q was shown:\n%s\n%s", err, s, screen.String(), out.String())
			default:
			}
			_ = ptm.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
			k, _ := ptm.Read(buf)
			screen.Write(buf[:k])
		}
	}
	waitFor("[k] keep planning", 1)
	if !strings.Contains(screen.String(), "Rename alpha to beta") || !strings.Contains(screen.String(), "approve it to leave plan mode") {
		t.Fatalf("the plan is not shown:\n%s", screen.String())
	}
	fmt.Fprint(ptm, "also cover the error path\r")
	waitFor("[k] keep planning", 2)
	fmt.Fprint(ptm, "a\r")
	if err := <-exited; err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), screen.String())
	}
	f := parseFinal(t, out.String())
	ev := c.show(f.SessionID).Events
	first := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(ev, session.TypeToolResult)[0])
	if first.Error == nil || !strings.Contains(resultText(first), "also cover the error path") || !strings.Contains(resultText(first), "keep planning") {
		t.Fatalf("keep planning must fail the call with the feedback: %+v", first)
	}
	modes := sessiontest.OfType(ev, session.TypePlanMode)
	if f.Text != "starting the work" || len(modes) != 2 || sessiontest.Decode[session.PlanMode](t, modes[1]).Active {
		t.Fatalf("%+v, %d plan/mode events", f, len(modes))
	}
}
