package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
)

// Shell is one interpreter whose state (cwd, variables, functions) lives
// across Run calls; that is what a persistent sandbox shell needs. A Shell
// is not safe for concurrent use.
type Shell struct {
	runner  *interp.Runner
	crashed bool // a Run panicked; see recoverCrash
}

// New returns a Shell starting in dir with exactly env as its environment
// (nothing is inherited from the process, so no host variable leaks in).
func New(dir string, env map[string]string) (*Shell, error) {
	r, err := newRunner(dir, env)
	if err != nil {
		return nil, err
	}
	return &Shell{runner: r}, nil
}

func newRunner(dir string, env map[string]string) (*interp.Runner, error) {
	pairs := make([]string, 0, len(env))
	for k, v := range env {
		pairs = append(pairs, k+"="+v)
	}
	sort.Strings(pairs)
	if dir == "" {
		dir = "/"
	}
	return interp.New(
		interp.Env(expand.ListEnviron(pairs...)),
		interp.Dir(dir),
		interp.ExecHandlers(execMiddleware),
		interp.OpenHandler(openHandler),
	)
}

// openHandler opens redirect targets. The guest has no /dev, so /dev/null
// is served here: reads see EOF, writes vanish. Scripts redirect to it
// constantly (2>/dev/null).
func openHandler(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	if isDevNull(path) {
		return devNull{}, nil
	}
	f, err := defaultOpen(ctx, path, flag, perm)
	var pe *os.PathError
	if errors.As(err, &pe) && errors.Is(pe.Err, syscall.EBADF) {
		err = &os.PathError{Op: pe.Op, Path: pe.Path, Err: errors.New(OutsideText)}
	}
	return f, err
}

var defaultOpen = interp.DefaultOpenHandler()

func isDevNull(path string) bool { return filepath.Clean(path) == "/dev/null" }

// devNull is /dev/null.
type devNull struct{}

func (devNull) Read([]byte) (int, error)    { return 0, io.EOF }
func (devNull) Write(p []byte) (int, error) { return len(p), nil }
func (devNull) Close() error                { return nil }

// Run parses and runs command with the given standard streams and returns
// its exit status. A syntax error is reported on stderr with status 2, as a
// shell would. The returned error is non-nil only when the interpreter
// itself failed (for example the context ended).
func (s *Shell) Run(ctx context.Context, command string, stdin io.Reader, stdout, stderr io.Writer) (code int, err error) {
	defer s.recoverCrash(stderr, &code)
	file, err := parseBash(command, "")
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	if err := interp.StdIO(stdin, stdout, stderr)(s.runner); err != nil {
		return 1, err
	}
	if err != nil {
		return s.runUntilSyntaxError(ctx, command, err, stderr)
	}
	defer runningScript(file)()
	return exitCode(s.runner.Run(ctx, file))
}

// runUntilSyntaxError runs the lines before a syntax error, as bash does,
// then reports the error.
func (s *Shell) runUntilSyntaxError(ctx context.Context, command string, synErr error, stderr io.Writer) (int, error) {
	prefix, st := parsePrefix(command, "", synErr)
	last := 0
	if prefix != nil {
		done := runningScript(prefix)
		var err error
		last, err = exitCode(s.runner.Run(ctx, prefix))
		done()
		if err != nil || s.runner.Exited() {
			return last, err
		}
	}
	fmt.Fprintf(stderr, "sh: %v\n", synErr)
	if st < 0 {
		return last, nil
	}
	return st, nil
}

// ExitCrashed is the status of a command during which the interpreter
// itself failed (a Go panic in the guest): what a shell reports for a
// command killed by SIGABRT.
const ExitCrashed = 134

// recoverCrash turns a panic of the interpreter into a failed command:
// the message goes to stderr after whatever the command printed, the
// status is ExitCrashed, and the Shell counts as exited, since its state
// may be half-updated. Without it the guest traps and the call's output
// is lost. (A panic in a pipeline's other goroutines still traps; the
// host reports that the same way.)
func (s *Shell) recoverCrash(stderr io.Writer, code *int) {
	p := recover()
	if p == nil {
		return
	}
	s.crashed = true
	fmt.Fprintf(stderr, "sh: the shell interpreter failed (%v); the output above is what ran before it; the shell's state was reset\n", p)
	*code = ExitCrashed
}

// Exited reports whether the script ran `exit` (or the interpreter
// failed); a persistent caller should then start a fresh Shell.
func (s *Shell) Exited() bool { return s.crashed || s.runner.Exited() }

// Dir is the interpreter's current directory.
func (s *Shell) Dir() string { return s.runner.Dir }

// Run runs command once in a fresh interpreter; see Shell.Run.
func Run(ctx context.Context, dir string, env map[string]string, command string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	s, err := New(dir, env)
	if err != nil {
		return 1, err
	}
	return s.Run(ctx, command, stdin, stdout, stderr)
}

func exitCode(err error) (int, error) {
	if err == nil {
		return 0, nil
	}
	var st interp.ExitStatus
	if errors.As(err, &st) {
		return int(st), nil
	}
	return 1, err
}
