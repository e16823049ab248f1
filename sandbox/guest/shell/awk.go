package shell

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/benhoyt/goawk/interp"
	"github.com/benhoyt/goawk/parser"
)

var awkCommands = map[string]builtinFunc{"awk": awk, "gawk": awk, "mawk": awk, "nawk": awk}

// awk runs a program with GoAWK (POSIX awk plus the common gawk
// extensions). system() and command pipes are refused: the guest cannot
// start processes, and GoAWK would try to.
func awk(c *cmd, args []string) int {
	var vars, progFiles []string
	fs := ""
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		flag, val := a[1], a[2:]
		if flag != 'F' && flag != 'v' && flag != 'f' {
			return c.usage(fmt.Errorf("unsupported option '%s' (supported: -F fs, -v var=value, -f file)", a))
		}
		if val == "" {
			if i+1 >= len(args) {
				return c.usage(fmt.Errorf("option requires an argument -- '%c'", flag))
			}
			i++
			val = args[i]
		}
		switch flag {
		case 'F':
			fs = val
		case 'v':
			name, v, ok := strings.Cut(val, "=")
			if !ok {
				return c.usage(fmt.Errorf("'%s' is not a var=value assignment", val))
			}
			vars = append(vars, name, unescapeAwk(v))
		case 'f':
			progFiles = append(progFiles, val)
		}
	}
	var src string
	if len(progFiles) > 0 {
		var b strings.Builder
		for _, f := range progFiles {
			data, err := os.ReadFile(c.path(f))
			if err != nil {
				c.fail("can't open source file '%s': %s", f, errText(err))
				return 2
			}
			b.Write(data)
			b.WriteByte('\n')
		}
		src = b.String()
	} else {
		if i >= len(args) {
			return c.usage(errors.New("usage: awk [-F fs][-v var=value][prog | -f progfile][file ...]"))
		}
		src, i = args[i], i+1
	}
	if len(vars) == 0 && len(progFiles) == 0 {
		f := fs
		if f == "t" {
			f = `\t`
		}
		if p := newAwkFieldPrinter(src, unescapeAwk(f)); p != nil && awkPlainOperands(c, args[i:]) {
			return p.run(c, args[i:])
		}
	}
	if fs != "" {
		if fs == "t" {
			fs = `\t`
		}
		vars = append(vars, "FS", unescapeAwk(fs))
	}
	prog, err := parser.ParseProgram([]byte(src), nil)
	if err != nil {
		c.fail("%v", err)
		return 1
	}
	it, err := interp.New(prog)
	if err != nil {
		c.fail("%v", err)
		return 1
	}
	var environ []string
	for _, kv := range c.environ() {
		k, v, _ := strings.Cut(kv, "=")
		environ = append(environ, k, v)
	}
	operands, stdin := c.awkOperands(args[i:])
	cfg := &interp.Config{
		Stdin: stdin, Output: c.bufOut(), Error: c.stderr,
		Argv0: "awk", Args: operands, Vars: vars, Environ: environ,
		NoExec: true,
	}
	defer c.flushOut()
	release := enterDir(c.dir)
	defer release()
	status, err := it.ExecuteContext(c.ctx, cfg)
	if err != nil {
		if c.ctx.Err() != nil {
			return 130
		}
		c.fail("%s", strings.TrimPrefix(err.Error(), "interp: "))
		return 2
	}
	return status
}

// awkOperands hands one stream operand (/dev/stdin, or the /dev/fd/63 of
// a process substitution), which GoAWK cannot open by name, to awk as its
// standard input when nothing else reads that.
func (c *cmd) awkOperands(operands []string) ([]string, io.Reader) {
	out := append([]string(nil), operands...)
	for _, a := range out {
		if a == "-" {
			return out, c.stdin
		}
	}
	for j, a := range out {
		if isStream(c, a) {
			if r, err := c.open(a); err == nil {
				out[j] = "-"
				return out, r
			}
		}
	}
	return out, c.stdin
}

// unescapeAwk expands the escapes awk applies to -v values and -F.
func unescapeAwk(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	r := strings.NewReplacer(`\t`, "\t", `\n`, "\n", `\\`, `\`, `\/`, "/", `\"`, `"`, `\r`, "\r")
	return r.Replace(s)
}

// environ lists the exported variables as NAME=value pairs.
func (c *cmd) environ() []string {
	var out []string
	for k, v := range c.exported() {
		out = append(out, k+"="+v)
	}
	return out
}

// cwdState tracks the process working directory for the commands that
// open files through libraries resolving names against it (awk's
// operands, getline and print redirections). The interpreter and the other
// builtins always use absolute paths, so only these see it.
var cwdState struct {
	sync.Mutex
	users int
	dir   string
	prev  string
}

// enterDir makes dir the process working directory for as long as the
// returned release has not been called. Overlapping users (a pipeline of
// two awks) share the directory of the first; a second directory at the
// same time is not supported and keeps the first.
func enterDir(dir string) (release func()) {
	cwdState.Lock()
	defer cwdState.Unlock()
	if cwdState.users == 0 {
		cwdState.prev, _ = os.Getwd()
		if os.Chdir(dir) == nil {
			cwdState.dir = dir
		}
	}
	cwdState.users++
	return func() {
		cwdState.Lock()
		defer cwdState.Unlock()
		cwdState.users--
		if cwdState.users == 0 && cwdState.prev != "" {
			os.Chdir(cwdState.prev)
		}
	}
}
