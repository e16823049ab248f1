package hooks

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// MaxOutput is how much of a hook's stdout and of its stderr is kept.
const MaxOutput = 64 << 10

// Run is how one hook run ended.
type Run struct {
	ExitCode int
	Stdout   string
	Stderr   string
	// TimedOut: the hook outlived its timeout and was killed. Err: it
	// could not be started (or its sandbox failed).
	TimedOut bool
	Err      error
	Duration time.Duration
}

// Spec is one run to make: the hook, what it reads on stdin, the
// directory and the variables it gets besides its environment.
type Spec struct {
	Hook  Hook
	Stdin []byte
	Dir   string
	Env   []string
}

// Exec runs one hook under ctx (which carries its timeout) and reports
// how it ended. HostExec is the user hooks'; the caller gives the
// project hooks' (a sandbox).
type Exec func(ctx context.Context, s Spec) Run

// HostExec runs the command with /bin/sh -c as the user's own process,
// in its own process group (all of it killed at the timeout), with the
// user's environment plus s.Env.
func HostExec(ctx context.Context, s Spec) Run {
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", s.Hook.Command)
	cmd.Dir, cmd.Env = s.Dir, append(os.Environ(), s.Env...)
	cmd.Stdin = bytes.NewReader(s.Stdin)
	var out, errOut Capped
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	start := time.Now()
	err := cmd.Run()
	r := Run{Stdout: out.String(), Stderr: errOut.String(), Duration: time.Since(start), ExitCode: -1}
	if cmd.ProcessState != nil {
		r.ExitCode = cmd.ProcessState.ExitCode()
	}
	var exit *exec.ExitError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		r.TimedOut = true
	case err != nil && !errors.As(err, &exit):
		r.Err = err
	}
	return r
}

// Capped is a writer keeping the first MaxOutput bytes and dropping the
// rest (the process is not blocked).
type Capped struct{ b bytes.Buffer }

func (c *Capped) Write(p []byte) (int, error) {
	if room := MaxOutput - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *Capped) String() string { return c.b.String() }
