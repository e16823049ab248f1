package sandbox

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// HostNote is the Outcome.Note of every HostShell run (other notes, such
// as the output limit's, follow it after "; ").
const HostNote = "ran on the host with /bin/bash (danger-full-access), outside the sandbox"

// HostShell runs command with the host's /bin/bash -c in workspace. It is
// the danger-full-access route: no confinement at all, so callers must
// only use it when that mode is in force or was approved, and must show
// Outcome.Host to the user and the log. Output is capped as for guest
// commands; the context deadline kills the whole process group.
func (h *Host) HostShell(ctx context.Context, workspace, command string) (Outcome, error) {
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	return h.hostShell(ctx, cctx, workspace, command, newOutput(h.cfg.OutputLimit, cancel))
}

// HostShellStream is HostShell for a background command (a job): its
// output goes to w as it comes, uncapped (w keeps its own bounds). The
// process group dies with the context, and with ptc (a death signal);
// a process that leaves the group (setsid) is beyond reach, as it is in
// this mode anyway.
func (h *Host) HostShellStream(ctx context.Context, workspace, command string, w io.Writer) (Outcome, error) {
	return h.hostShell(ctx, ctx, workspace, command, newSinkOutput(w))
}

func (h *Host) hostShell(ctx, cctx context.Context, workspace, command string, out *output) (Outcome, error) {
	cmd := exec.CommandContext(cctx, "/bin/bash", "-c", command)
	cmd.Dir = workspace
	cmd.Stdin = strings.NewReader("")
	cmd.Stdout, cmd.Stderr = out.Stdout(), out.Stderr()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	o := Outcome{Host: true, Note: HostNote}
	o.Stdout, o.Stderr, o.Truncated = out.resultCopy()
	var exit *exec.ExitError
	switch {
	case o.Truncated:
		o.ExitCode, o.Note = ExitStopped, o.Note+"; "+h.limitNote()
	case ctx.Err() != nil:
		o = h.ctxEnded(ctx, o)
		o.Host = true
	case errors.As(err, &exit):
		o.ExitCode = exit.ExitCode()
	case err != nil:
		return o, err
	}
	return o, nil
}
