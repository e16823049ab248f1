package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/interp"
)

// builtinFunc runs one command and returns its exit status. Failures are
// written to c.stderr in the usual "name: problem" form.
type builtinFunc func(c *cmd, args []string) int

// builtins is the table of every external command the sandbox provides. It
// is filled in init from the per-family tables so xargs can refer to it.
var builtins map[string]builtinFunc

func init() {
	builtins = map[string]builtinFunc{}
	for _, table := range []map[string]builtinFunc{textCommands, columnCommands, fileCommands, findCommands, diffCommands, miscCommands, grepCommands, sedCommands} {
		for name, f := range table {
			builtins[name] = f
		}
	}
	builtins["xargs"] = xargs
}

// NotFoundMessage is printed (after the command name) for a command that is
// not a builtin; it tells the model how to reach the host shell instead.
const NotFoundMessage = "command not found in the sandbox (only builtin commands run here; rerun the tool call with sandbox_permissions \"danger-full-access\" and a justification to use the host shell)"

// execMiddleware replaces the interpreter's process launcher: builtins run
// in Go, anything else exits 127 with NotFoundMessage.
func execMiddleware(interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := interp.HandlerCtx(ctx)
		f, ok := builtins[args[0]]
		if !ok {
			fmt.Fprintf(hc.Stderr, "%s: %s\n", args[0], NotFoundMessage)
			return interp.ExitStatus(127)
		}
		c := &cmd{ctx: ctx, name: args[0], dir: hc.Dir, stdin: hc.Stdin, stdout: hc.Stdout, stderr: hc.Stderr, hc: hc}
		if c.stdin == nil {
			c.stdin = strings.NewReader("")
		}
		if st := f(c, args[1:]); st != 0 {
			return interp.ExitStatus(st)
		}
		return nil
	}
}

// cmd is what a builtin sees of the interpreter.
type cmd struct {
	ctx    context.Context
	name   string
	dir    string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	hc     interp.HandlerContext
}

// path resolves p against the interpreter's current directory.
func (c *cmd) path(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(c.dir, p)
}

// fail prints "name: message" on stderr and returns status 1.
func (c *cmd) fail(format string, a ...any) int {
	fmt.Fprintf(c.stderr, c.name+": "+format+"\n", a...)
	return 1
}

// usage prints a flag problem and returns status 2, as GNU tools do.
func (c *cmd) usage(err error) int {
	fmt.Fprintf(c.stderr, "%s: %v\n", c.name, err)
	return 2
}

// open opens a named input; "-" is standard input.
func (c *cmd) open(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(c.stdin), nil
	}
	if isDevNull(c.path(name)) {
		return devNull{}, nil
	}
	return os.Open(c.path(name))
}

// OutsideText is printed for a path that lies outside every mount. The
// guest's WASI layer reports such paths as EBADF ("Bad file number"), which
// reads like a bug rather than a boundary.
const OutsideText = "outside the sandbox (only the workspace and /tmp are visible)"

// errText turns an *os.PathError into the short text GNU tools print.
func errText(err error) string {
	var pathErr bool
	var le *os.LinkError
	if pe, ok := err.(*os.PathError); ok {
		err, pathErr = pe.Err, true
	} else if errors.As(err, &le) {
		err, pathErr = le.Err, true
	}
	switch {
	case pathErr && errors.Is(err, syscall.EBADF):
		return OutsideText
	case os.IsNotExist(err):
		return "No such file or directory"
	case os.IsPermission(err):
		return "Permission denied"
	case os.IsExist(err):
		return "File exists"
	}
	s := err.Error()
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

// forEachInput calls f for every named input (stdin when names is empty),
// reporting unreadable ones and returning 1 if any failed.
func (c *cmd) forEachInput(names []string, f func(name string, r io.Reader) error) int {
	if len(names) == 0 {
		names = []string{"-"}
	}
	status := 0
	for _, n := range names {
		rc, err := c.open(n)
		if err == nil {
			if fi, serr := os.Stat(c.path(n)); n != "-" && serr == nil && fi.IsDir() {
				rc.Close()
				c.fail("%s: Is a directory", n)
				status = 1
				continue
			}
			err = f(n, rc)
			rc.Close()
		}
		if err != nil {
			c.fail("%s: %s", n, errText(err))
			status = 1
		}
	}
	return status
}
