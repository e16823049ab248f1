package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"
	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/interp"

	"mvdan.cc/sh/v3/syntax"
)

// shellCommands are bash and sh: a child interpreter in the same guest, as
// a new bash process would be — it sees the exported variables, the
// directory and the standard streams, and nothing else of its parent
// (no functions, aliases, options or unexported variables).
var shellCommands = map[string]builtinFunc{"bash": runShellCommand, "sh": runShellCommand, lateErrorCommand: lateErrorBuiltin}

// maxShellDepth bounds shells started from shells, so `f() { bash -c f; }`
// ends with an error instead of exhausting the guest's stack.
const maxShellDepth = 64

type shellDepthKey struct{}

// invocation is what the arguments of bash ask for.
type invocation struct {
	name      string   // $0
	command   string   // the -c string, or the script's text
	fromFile  string   // the script file, when one is run
	useString bool     // -c
	readStdin bool     // no command and no file: the script is stdin
	noExec    bool     // -n: parse only
	params    []string // set-style options, then "--" and the arguments
	shopts    []string // -O names
	version   bool
}

func parseInvocation(self string, args []string) (*invocation, error) {
	inv := &invocation{name: self}
	var flags []string
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" {
			i++
			break
		}
		if strings.HasPrefix(a, "--") {
			switch a {
			case "--version":
				inv.version = true
			case "--norc", "--noprofile", "--posix", "--login", "--noediting", "--restricted":
			default:
				return nil, fmt.Errorf("%s: invalid option", a)
			}
			continue
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		on := a[0] == '-'
		for _, f := range a[1:] {
			switch f {
			case 'c':
				inv.useString = true
			case 's':
				inv.readStdin = true
			case 'i', 'l', 'r', 'p', 'h', 'm', 'B', 'H', 'P', 'k', 't', 'v', 'b', 'T', 'E':
				// interactive, login, restricted, privileged and other flags
				// with no bearing on a sandboxed, non-interactive shell
			case 'n':
				inv.noExec = on
			case 'o', 'O':
				if i+1 >= len(args) {
					return nil, fmt.Errorf("-%c: option requires an argument", f)
				}
				i++
				if f == 'O' {
					inv.shopts = append(inv.shopts, map[bool]string{true: "-s", false: "-u"}[on], args[i])
				} else {
					flags = append(flags, string(a[0])+"o", args[i])
				}
			default:
				if !strings.ContainsRune("aefuxC", f) {
					return nil, fmt.Errorf("%c%c: invalid option", a[0], f)
				}
				flags = append(flags, string(a[0])+string(f))
			}
		}
	}
	rest := args[i:]
	switch {
	case inv.useString:
		if len(rest) == 0 {
			return nil, errors.New("-c: option requires an argument")
		}
		inv.command, rest = rest[0], rest[1:]
		if len(rest) > 0 {
			inv.name, rest = rest[0], rest[1:]
		}
	case !inv.readStdin && len(rest) > 0:
		inv.fromFile, inv.name, rest = rest[0], rest[0], rest[1:]
	default:
		inv.readStdin = true
	}
	inv.params = append(append(flags, "--"), rest...)
	return inv, nil
}

func runShellCommand(c *cmd, args []string) int {
	inv, err := parseInvocation(c.name, args)
	if err != nil {
		fmt.Fprintf(c.stderr, "%s: %v\n", c.name, err)
		return 2
	}
	if inv.version {
		fmt.Fprintln(c.stdout, "GNU bash, version 5.2.15(1)-release (ptc sandbox interpreter)")
		return 0
	}
	switch {
	case inv.fromFile != "":
		data, st := c.readScript(inv.fromFile)
		if st != 0 {
			return st
		}
		inv.command = data
	case inv.readStdin:
		data, err := io.ReadAll(c.stdin)
		if err != nil {
			return c.fail("reading the script from standard input: %v", err)
		}
		inv.command = string(data)
	}
	return c.runChild(inv)
}

// readScript reads a script named on the command line, as bash reports a
// missing or unreadable one.
func (c *cmd) readScript(name string) (string, int) {
	p := c.path(name)
	info, err := os.Stat(p)
	if err == nil && info.IsDir() {
		fmt.Fprintf(c.stderr, "%s: %s: Is a directory\n", c.name, name)
		return "", 126
	}
	data, err := os.ReadFile(p)
	if err != nil {
		fmt.Fprintf(c.stderr, "%s: %s: %s\n", c.name, name, errText(err))
		if errors.Is(err, fs.ErrNotExist) {
			return "", 127
		}
		return "", 126
	}
	return string(data), 0
}

// runChild runs inv in a new interpreter and returns its exit status.
func (c *cmd) runChild(inv *invocation) int {
	depth, _ := c.ctx.Value(shellDepthKey{}).(int)
	if depth >= maxShellDepth {
		fmt.Fprintf(c.stderr, "%s: too many nested shells (the sandbox allows %d)\n", c.name, maxShellDepth)
		return 126
	}
	ctx := context.WithValue(c.ctx, shellDepthKey{}, depth+1)
	file, synErr := prepareScript(inv.command, inv.name)
	status := 0
	if synErr != nil {
		if inv.noExec {
			fmt.Fprintf(c.stderr, "%s: %v\n", inv.name, synErr)
			return 2
		}
		file, status = parsePrefix(inv.command, inv.name, synErr)
	}
	if inv.noExec {
		return 0
	}
	r, err := newRunner(c.dir, exportedEnv(c.hc.Env))
	if err == nil {
		err = interp.Params(inv.params...)(r)
	}
	if err == nil && len(inv.shopts) > 0 {
		for i := 0; i < len(inv.shopts) && err == nil; i += 2 {
			err = interp.BashOpts(inv.shopts[i], inv.shopts[i+1])(r)
		}
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "%s: %v\n", c.name, err)
		return 2
	}
	c.flushOut()
	if err := interp.StdIO(c.stdin, c.stdout, c.stderr)(r); err != nil {
		return c.fail("%v", err)
	}
	st := 0
	if file != nil {
		st, err = exitCode(r.Run(ctx, file))
		if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			fmt.Fprintf(c.stderr, "%s: %v\n", c.name, err)
		}
	}
	if synErr == nil || r.Exited() {
		return st
	}
	fmt.Fprintf(c.stderr, "%s: %v\n", inv.name, synErr)
	if status < 0 {
		return st
	}
	return status
}

// exportedEnv is the environment a new process sees: the exported string
// variables, later definitions winning.
func exportedEnv(env expand.Environ) map[string]string {
	m := map[string]string{}
	env.Each(func(name string, vr expand.Variable) bool {
		switch {
		case !vr.IsSet() || !vr.Exported:
			delete(m, name)
		case vr.Kind == expand.String:
			m[name] = vr.Str
		}
		return true
	})
	return m
}

// scriptInterpreters are the #! programs whose scripts the guest runs in
// its own interpreter.
var scriptInterpreters = map[string]bool{"sh": true, "bash": true, "dash": true, "ash": true, "ksh": true}

// runScriptFile runs ./script.sh: a file named by a path, as the kernel
// would, when its #! line (or its lack of one) asks for a shell. ok is
// false when the file is a program the guest cannot run.
func runScriptFile(c *cmd, args []string) (status int, ok bool) {
	p := c.path(args[0])
	info, err := os.Stat(p)
	switch {
	case err != nil:
		fmt.Fprintf(c.stderr, "%s: %s\n", args[0], errText(err))
		if errors.Is(err, fs.ErrNotExist) {
			return 127, true
		}
		return 126, true
	case info.IsDir():
		fmt.Fprintf(c.stderr, "%s: Is a directory\n", args[0])
		return 126, true
	}
	data, err := os.ReadFile(p)
	if err != nil {
		fmt.Fprintf(c.stderr, "%s: %s\n", args[0], errText(err))
		return 126, true
	}
	// The sandbox cannot set permission bits (chmod +x fails there), so a
	// file with a #! line counts as executable whatever its mode; one
	// without needs the bit, as in bash.
	if perm := info.Mode().Perm(); perm != 0 && perm&0o111 == 0 && !strings.HasPrefix(string(data), "#!") {
		fmt.Fprintf(c.stderr, "%s: Permission denied\n", args[0])
		return 126, true
	}
	if interp, ok := shebang(string(data)); ok && !scriptInterpreters[interp] || compiled(data) {
		return 0, false // a program for the host (or another interpreter)
	}
	return c.runChild(&invocation{name: args[0], command: string(data), params: append([]string{"--"}, args[1:]...)}), true
}

// shebang returns the base name of the program a #! line names, looking
// through /usr/bin/env. ok is false for a file without #!.
func shebang(script string) (prog string, ok bool) {
	line, found := strings.CutPrefix(script, "#!")
	if !found {
		return "", false
	}
	line, _, _ = strings.Cut(line, "\n")
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return "", true
	}
	prog = path.Base(fields[0])
	if prog == "env" {
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") && !strings.Contains(f, "=") {
				return path.Base(f), true
			}
		}
	}
	return prog, true
}

// parseBash parses a script and rejects what bash's grammar refuses but
// mvdan.cc/sh accepts: a function whose body is not a compound command
// (f() ls). Bash fails such a script with a syntax error before running
// any of it; running it instead would quietly do something else.
func parseBash(src, name string) (*syntax.File, error) {
	file, err := syntax.NewParser().Parse(strings.NewReader(src), name)
	if err != nil {
		return nil, err
	}
	syntax.Walk(file, func(n syntax.Node) bool {
		fd, ok := n.(*syntax.FuncDecl)
		if !ok || err != nil || fd.Body == nil {
			return err == nil
		}
		switch fd.Body.Cmd.(type) {
		case *syntax.Block, *syntax.Subshell, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause,
			*syntax.CaseClause, *syntax.TestClause, *syntax.ArithmCmd:
		default:
			err = fmt.Errorf("%s: syntax error: the body of function %s must be a compound command ({ ...; })", fd.Body.Pos(), fd.Name.Value)
		}
		return err == nil
	})
	return file, err
}

// unaryTestMsg is the parser's complaint about a [[ -f ]] without operand.
var unaryTestMsg = regexp.MustCompile("`-[a-zA-Z]` must be followed by a word")

// parsePrefix is what bash runs of a script with a syntax error: bash
// reads and runs a script a command at a time, so the complete lines
// before the error run, then the error ends the shell. It returns those
// lines parsed (nil when there are none) and the status to exit with:
// 2, or 1 for an arithmetic expression (bash checks those only at run
// time), or -1 to keep the last command's status, as bash does after a
// malformed [[ ]].
func parsePrefix(src, name string, err error) (*syntax.File, int) {
	status := 2
	msg := err.Error()
	switch {
	case strings.Contains(msg, "arithmetic") || strings.Contains(msg, "floating point"):
		status = 1
	case strings.Contains(msg, "test operator") || strings.Contains(msg, "[[") || unaryTestMsg.MatchString(msg):
		status = -1
	}
	pos, ok := errPos(err)
	if !ok || pos.Line() <= 1 {
		return nil, status
	}
	cut := 0
	for line := 1; line < int(pos.Line()); line++ {
		i := strings.IndexByte(src[cut:], '\n')
		if i < 0 {
			return nil, status
		}
		cut += i + 1
	}
	file, perr := parseBash(src[:cut], name)
	if perr != nil || len(file.Stmts) == 0 {
		return nil, status
	}
	return file, status
}

// compiled reports whether data looks like a compiled program rather than
// a script: a NUL byte near the start.
func compiled(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 1024)], 0) >= 0
}

// lateErrorCommand is the builtin a line with a late error is replaced
// by; it reports the error and fails, as bash does when it reaches the
// line.
const lateErrorCommand = "ptc:expansion-error"

// lateError reports whether a parse error is one bash only finds when the
// line runs: a bad ${...} or $((...)). Bash then fails that command with
// status 1 and goes on with the next line; the parser here rejects the
// whole script.
func lateError(err error) bool {
	msg := err.Error()
	for _, m := range []string{"parameter expansion", "must be followed by an expression", "arithmetic", "floating point", "must follow a name"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// maxLateErrors bounds the lines prepareScript rewrites.
const maxLateErrors = 64

// prepareScript parses a script as bash would run it: each line with a
// late error (see lateError) becomes a command that reports it, so the
// lines around it still run.
func prepareScript(src, name string) (*syntax.File, error) {
	for range maxLateErrors {
		file, err := parseBash(src, name)
		if err == nil || !lateError(err) {
			return file, err
		}
		pos, ok := errPos(err)
		if !ok {
			return file, err
		}
		lines := strings.Split(src, "\n")
		n := int(pos.Line()) - 1
		if n < 0 || n >= len(lines) {
			return file, err
		}
		lines[n] = lateErrorCommand + " '" + strings.ReplaceAll(err.Error(), "'", `'\''`) + "'"
		src = strings.Join(lines, "\n")
	}
	return parseBash(src, name)
}

// lateErrorBuiltin is the command prepareScript puts in place of a line
// with a late error.
func lateErrorBuiltin(c *cmd, args []string) int {
	fmt.Fprintf(c.stderr, "sh: %s\n", strings.Join(args, " "))
	return 1
}

// errPos is where a parse error is.
func errPos(err error) (syntax.Pos, bool) {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return pe.Pos, true
	}
	var le syntax.LangError
	if errors.As(err, &le) {
		return le.Pos, true
	}
	return syntax.Pos{}, false
}
