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

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"
	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/interp"
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
	opts := []interp.RunnerOption{
		interp.Env(expand.ListEnviron(pairs...)),
		interp.Dir(dir),
		interp.ExecHandlers(execMiddleware),
		interp.OpenHandler(openHandler),
		// command -v, type and hash find commands as the sandbox runs them.
		interp.PtcLookPath(LookCommand),
	}
	return interp.New(opts...)
}

// LookCommand finds a command the way the sandbox runs it, given $PATH:
// a builtin is NAME in the first standard bin directory of $PATH (the
// guest has no such files; running that path runs the builtin), then a
// script in a $PATH directory the guest can see, then a host program
// (when the sandbox allows them). command -v, type, hash and which all
// answer from it, and the shell runs commands in the same order.
func LookCommand(name, pathVar string) (string, bool) {
	if strings.ContainsRune(name, '/') {
		return "", false
	}
	if _, ok := builtins[name]; ok {
		return builtinDir(pathVar) + name, true
	}
	if p := pathScript(name, pathVar, ""); p != "" {
		return p, true
	}
	if Host != nil {
		if p, err := Host.Lookup(name); err == nil {
			return p, true
		}
	}
	return "", false
}

func systemBinDir(d string) bool {
	switch filepath.Clean(d) {
	case "/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin", "/sbin", "/usr/local/sbin":
		return true
	}
	return false
}

// builtinDir is where a builtin appears to live: the first of the usual
// bin directories on $PATH.
func builtinDir(pathVar string) string {
	for _, d := range filepath.SplitList(pathVar) {
		if systemBinDir(d) {
			return filepath.Clean(d) + "/"
		}
	}
	return "/usr/bin/"
}

// pathScript finds name in the $PATH directories the guest can see (the
// workspace's bin directories, say): the first regular file. Relative
// entries are relative to dir. The sandbox's file system has no
// permission bits, so the executable bit is not checked.
func pathScript(name, pathVar, dir string) string {
	for _, d := range filepath.SplitList(pathVar) {
		if d == "" {
			d = "."
		}
		if systemBinDir(d) {
			continue // the host's programs: builtins, or host programs
		}
		p := filepath.Join(d, name)
		if !filepath.IsAbs(p) {
			if dir == "" {
				continue
			}
			p = filepath.Join(dir, p)
		}
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			if !filepath.IsAbs(filepath.Join(d, name)) {
				return filepath.Join(d, name)
			}
			return p
		}
	}
	return ""
}

// openHandler opens redirect targets. The guest has no /dev, so /dev/null
// is served here: reads see EOF, writes vanish. Scripts redirect to it
// constantly (2>/dev/null).
func openHandler(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	if d, ok := openDevice(path); ok {
		return d, nil
	}
	f, err := defaultOpen(ctx, path, flag, perm)
	var pe *os.PathError
	if errors.As(err, &pe) && errors.Is(pe.Err, syscall.EBADF) {
		err = &os.PathError{Op: pe.Op, Path: pe.Path, Err: errors.New(OutsideText)}
	}
	return f, err
}

var defaultOpen = interp.DefaultOpenHandler()

// Run parses and runs command with the given standard streams and returns
// its exit status. A syntax error is reported on stderr with status 2, as a
// shell would. The returned error is non-nil only when the interpreter
// itself failed (for example the context ended).
func (s *Shell) Run(ctx context.Context, command string, stdin io.Reader, stdout, stderr io.Writer) (code int, err error) {
	defer s.recoverCrash(stderr, &code)
	file, err := prepareScript(command, "")
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
