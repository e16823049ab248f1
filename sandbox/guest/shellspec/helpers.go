package shellspec

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Proc is what a helper sees of the process that runs it.
type Proc struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Getenv looks up an exported variable.
	Getenv func(name string) (string, bool)
	// FD opens an inherited descriptor above 2 for reading; nil or an
	// error when the shell has none.
	FD func(fd int) (io.Reader, error)
}

// Helper is one of the Oils spec helper programs; it returns the exit
// status.
type Helper func(p Proc, args []string) int

// Helpers are the spec helpers by the names the cases call them. Each
// behaves like the Python original in Oils' spec/bin for the arguments the
// spec files pass.
var Helpers = map[string]Helper{
	"argv.py":          argv,
	"printenv.py":      printenv,
	"stdout_stderr.py": stdoutStderr,
	"read_from_fd.py":  readFromFD,
}

// argv prints its arguments as a Python list literal, one line.
func argv(p Proc, args []string) int {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = PyRepr(a)
	}
	fmt.Fprintf(p.Stdout, "[%s]\n", strings.Join(quoted, ", "))
	return 0
}

// PyRepr quotes s the way Python 2's repr quotes a byte string: single
// quotes unless s holds a single quote and no double quote; backslash,
// the quote, \t \n \r and every other byte outside printable ASCII
// escaped.
func PyRepr(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// printenv prints the value of each named variable, or None when unset.
func printenv(p Proc, args []string) int {
	for _, name := range args {
		v, ok := p.Getenv(name)
		if !ok {
			v = "None"
		}
		fmt.Fprintln(p.Stdout, v)
	}
	return 0
}

// stdoutStderr prints its first argument (default STDOUT) on stdout, its
// second (default STDERR) on stderr, and exits with its third (default 0).
func stdoutStderr(p Proc, args []string) int {
	out, errs, status := "STDOUT", "STDERR", 0
	if len(args) > 0 {
		out = args[0]
	}
	if len(args) > 1 {
		errs = args[1]
	}
	if len(args) > 2 {
		status, _ = strconv.Atoi(args[2])
	}
	fmt.Fprintln(p.Stdout, out)
	fmt.Fprintln(p.Stderr, errs)
	return status
}

// readFromFD prints "N: " and the whole content of each descriptor N it is
// given.
func readFromFD(p Proc, args []string) int {
	for _, a := range args {
		fd, err := strconv.Atoi(a)
		if err != nil {
			fmt.Fprintf(p.Stderr, "read_from_fd.py: bad descriptor %q\n", a)
			return 2
		}
		var r io.Reader = p.Stdin
		if fd != 0 {
			if p.FD == nil {
				err = fmt.Errorf("no descriptor %d", fd)
			} else {
				r, err = p.FD(fd)
			}
		}
		if err != nil {
			fmt.Fprintf(p.Stderr, "read_from_fd.py: %v\n", err)
			return 1
		}
		data, err := io.ReadAll(r)
		if err != nil {
			fmt.Fprintf(p.Stderr, "read_from_fd.py: %v\n", err)
			return 1
		}
		fmt.Fprintf(p.Stdout, "%d: %s", fd, data)
	}
	return 0
}
