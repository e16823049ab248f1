package shell

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/interp"
)

// builtinFunc runs one command and returns its exit status. Failures are
// written to c.stderr in the usual "name: problem" form.
type builtinFunc func(c *cmd, args []string) int

// builtins is the table of every external command the sandbox provides. It
// is filled in init from the per-family tables so xargs can refer to it.
var builtins map[string]builtinFunc

func init() {
	builtins = map[string]builtinFunc{}
	for _, table := range append([]map[string]builtinFunc{textCommands, columnCommands, fileCommands, findCommands, diffCommands, miscCommands, grepCommands, sedCommands, specCommands, shellCommands}, addedCommands...) {
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
		if msg := argLimit(args, 0); msg != "" {
			fmt.Fprintln(hc.Stderr, msg)
			return interp.ExitStatus(126) // bash's status when execve says E2BIG
		}
		c := &cmd{ctx: ctx, name: args[0], dir: hc.Dir, stdin: hc.Stdin, stdout: hc.Stdout, stderr: hc.Stderr, hc: hc}
		if c.stdin == nil {
			c.stdin = strings.NewReader("")
		}
		f, ok := builtins[args[0]]
		if !ok {
			// $(command -v jq) is /usr/bin/jq: the builtin, unless the
			// guest really has such a file.
			if dir, base := filepath.Split(args[0]); dir == "/usr/bin/" || dir == "/bin/" {
				if bf, isBuiltin := builtins[base]; isBuiltin {
					if _, err := os.Stat(args[0]); err != nil {
						f, ok, c.name = bf, true, base
					}
				}
			}
		}
		if !ok && strings.ContainsRune(args[0], '/') {
			if st, ran := runScriptFile(c, args); ran {
				return exitStatus(st)
			}
		}
		if !ok && !strings.ContainsRune(args[0], '/') {
			// A script in a $PATH directory the guest can see.
			if p := pathScript(args[0], hc.Env.Get("PATH").String(), hc.Dir); p != "" {
				if st, ran := runScriptFile(c, append([]string{p}, args[1:]...)); ran {
					return exitStatus(st)
				}
			}
		}
		if !ok {
			st, ran, why := runHost(ctx, hc, args)
			if ran {
				return exitStatus(st)
			}
			fmt.Fprintf(hc.Stderr, "%s: %s\n", args[0], notFoundText(why))
			return interp.ExitStatus(127)
		}
		if bufferedCommands[args[0]] && c.stdout != nil {
			c.out = outPool.Get().(*bufio.Writer)
			c.out.Reset(c.stdout)
			c.stdout = c.out
			defer c.releaseOut()
		}
		return exitStatus(f(c, args[1:]))
	}
}

// exitStatus is the handler's answer for a command that ended with st.
func exitStatus(st int) error {
	if st != 0 {
		return interp.ExitStatus(st)
	}
	return nil
}

// bufferedCommands write their standard output through a buffer flushed
// when they end (and before each message on stderr, so the two keep
// their order). They print a line per write, and on wasip1 each write is
// a host call. xargs, tee and the like stay unbuffered: what they run or
// copy writes to the same stream.
var bufferedCommands = map[string]bool{
	"cat": true, "ls": true, "find": true, "grep": true, "egrep": true, "fgrep": true,
	"head": true, "tail": true, "wc": true, "sort": true, "uniq": true, "cut": true,
	"tr": true, "sed": true, "seq": true, "diff": true, "base64": true,
	"sha256sum": true, "basename": true, "dirname": true,
}

// outPool recycles the stdout buffers of buffered commands.
var outPool = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 32<<10) }}

// releaseOut flushes the buffered stdout and returns it to outPool.
func (c *cmd) releaseOut() {
	c.out.Flush()
	c.out.Reset(nil)
	outPool.Put(c.out)
	c.out = nil
}

// bufOut returns a buffered writer on stdout: the command's own buffer
// when it has one, else a new one the caller must flush.
func (c *cmd) bufOut() *bufio.Writer {
	if c.out != nil {
		return c.out
	}
	return bufio.NewWriter(c.stdout)
}

// flushOut writes out what a buffered command has printed so far.
func (c *cmd) flushOut() {
	if c.out != nil {
		c.out.Flush()
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
	out    *bufio.Writer // the buffer behind stdout, for buffered commands
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
	c.flushOut()
	fmt.Fprintf(c.stderr, c.name+": "+format+"\n", a...)
	return 1
}

// usage prints a flag problem and returns status 2, as GNU tools do.
func (c *cmd) usage(err error) int {
	c.flushOut()
	fmt.Fprintf(c.stderr, "%s: %v\n", c.name, err)
	return 2
}

// open opens a named input; "-" is standard input.
func (c *cmd) open(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(c.stdin), nil
	}
	if d, ok := openDevice(c.path(name)); ok {
		return d, nil
	}
	if r, ok := c.devReader(name); ok {
		if r == nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: errors.New("Bad file descriptor")}
		}
		return io.NopCloser(r), nil
	}
	return os.Open(c.path(name))
}

// devReader resolves /dev/stdin and /dev/fd/N (what <(cmd) expands to)
// to the command's own descriptors. ok is false for any other path; r is
// nil for a descriptor that is not open for reading.
func (c *cmd) devReader(name string) (r io.Reader, ok bool) {
	p := c.path(name)
	if p == "/dev/stdin" || p == "/dev/fd/0" {
		return c.stdin, true
	}
	n, found := strings.CutPrefix(p, "/dev/fd/")
	if !found {
		return nil, false
	}
	fd, err := strconv.Atoi(n)
	if err != nil {
		return nil, false
	}
	r, _, _ = c.hc.PtcFD(fd)
	return r, true
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
// reporting unreadable ones and returning 1 if any failed. A named file up
// to wholeLimit is read whole into one buffer reused across the inputs,
// so f must not keep r after it returns.
func (c *cmd) forEachInput(names []string, f func(name string, r io.Reader) error) int {
	if len(names) == 0 {
		names = []string{"-"}
	}
	status := 0
	var buf []byte
	for _, n := range names {
		var err error
		if _, dev := c.devReader(n); n == "-" || dev || isDevice(c.path(n)) {
			rc, _ := c.open(n)
			err = f(n, rc)
		} else {
			buf, err = c.eachFile(n, buf, f)
		}
		if isBrokenPipe(err) {
			return 141 // the reader went away: stop quietly, as SIGPIPE would
		}
		if err != nil {
			c.fail("%s: %s", n, errText(err))
			status = 1
		}
	}
	return status
}

// eachFile hands the named file to f: from memory when it is small, as a
// stream otherwise. A directory fails with "Is a directory" on its read.
func (c *cmd) eachFile(n string, buf []byte, f func(name string, r io.Reader) error) ([]byte, error) {
	big := false
	var err error
	if fi, serr := os.Stat(c.path(n)); serr == nil && fi.Mode().IsRegular() && fi.Size() > wholeLimit {
		big = true // known large: straight to the stream, not 1 MiB read for nothing first
	} else {
		buf, big, err = readUpTo(buf[:0], c.path(n), wholeLimit)
	}
	switch {
	case err != nil:
		return buf, err
	case !big:
		return buf, f(n, bytes.NewReader(buf))
	}
	file, err := os.Open(c.path(n))
	if err != nil {
		return buf, err
	}
	defer file.Close()
	return buf, f(n, file)
}

// openWrite opens a named output with flag (os.O_TRUNC, os.O_APPEND...):
// /dev/null, /dev/stdout, /dev/stderr and /dev/fd/N (what >(cmd) expands
// to) are the command's own streams, anything else a file. Builtins that
// write to named files (tee, sort -o...) go through it.
func (c *cmd) openWrite(name string, flag int) (io.WriteCloser, error) {
	p := c.path(name)
	var w io.Writer
	if d, ok := openDevice(p); ok {
		return d, nil
	}
	switch {
	case p == "/dev/stdout" || p == "/dev/fd/1":
		w = c.stdout
	case p == "/dev/stderr" || p == "/dev/fd/2":
		w = c.stderr
	case strings.HasPrefix(p, "/dev/fd/"):
		if fd, err := strconv.Atoi(p[len("/dev/fd/"):]); err == nil {
			_, w, _ = c.hc.PtcFD(fd)
			if w == nil {
				return nil, &os.PathError{Op: "open", Path: name, Err: errors.New("Bad file descriptor")}
			}
		}
	}
	if w != nil {
		return nopWriteCloser{w}, nil
	}
	return os.OpenFile(p, os.O_WRONLY|os.O_CREATE|flag, 0o644)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
