package shell

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

var miscCommands = map[string]builtinFunc{
	"true":  func(*cmd, []string) int { return 0 },
	"false": func(*cmd, []string) int { return 1 },
	"env":   env,
	"date":  date,
	"sleep": sleep,
	"which": which,
}

func env(c *cmd, args []string) int {
	if len(args) > 0 {
		return c.fail("running a command through env is not supported in the sandbox; run it directly")
	}
	var lines []string
	c.hc.Env.Each(func(name string, vr expand.Variable) bool {
		if vr.Exported && vr.IsSet() {
			lines = append(lines, name+"="+vr.String())
		}
		return true
	})
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Fprintln(c.stdout, l)
	}
	return 0
}

// sleep waits for the sum of its durations (suffixes s m h d) or until the
// context ends.
func sleep(c *cmd, args []string) int {
	if len(args) == 0 {
		return c.usage(fmt.Errorf("missing operand"))
	}
	var total time.Duration
	for _, a := range args {
		d, err := parseDuration(a)
		if err != nil {
			return c.fail("invalid time interval '%s'", a)
		}
		total += d
	}
	t := time.NewTimer(total)
	defer t.Stop()
	select {
	case <-t.C:
		return 0
	case <-c.ctx.Done():
		return 130
	}
}

func which(c *cmd, args []string) int {
	status := 0
	for _, a := range args {
		if _, ok := builtins[a]; ok || isShellBuiltin(a) {
			fmt.Fprintf(c.stdout, "/usr/bin/%s\n", a)
			continue
		}
		status = 1
	}
	return status
}

func isShellBuiltin(name string) bool {
	for _, b := range []string{"echo", "printf", "cd", "test", "[", "read", "export", "set", "unset", "exit", "pwd", "type", "source", ".", "eval", "shift", "wait", "trap", "local", "return"} {
		if b == name {
			return true
		}
	}
	return false
}

// xargs reads words from stdin and runs the command with them, through
// the interpreter (functions and builtins work; there is no exec).
func xargs(c *cmd, args []string) int {
	o, err := flagSpec{short: "n:I:0rtd:L:"}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	command := o.args
	if len(command) == 0 {
		command = []string{"echo"}
	}
	data, err := io.ReadAll(c.stdin)
	if err != nil {
		return c.fail("%v", err)
	}
	var items []string
	switch {
	case o.has("0"):
		items = strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
	case o.has("I") || o.has("L") || o.has("d"):
		sep := "\n"
		if o.has("d") {
			sep = o.val("d")
		}
		for _, l := range strings.Split(string(data), sep) {
			if strings.TrimSpace(l) != "" {
				items = append(items, strings.TrimSpace(l))
			}
		}
	default:
		items = strings.Fields(string(data))
	}
	if len(items) == 0 && o.has("r") {
		return 0
	}
	per := len(items)
	fmt.Sscan(o.val("n"), &per)
	fmt.Sscan(o.val("L"), &per)
	if o.has("I") {
		per = 1
	}
	per = max(per, 1)
	status := 0
	for start := 0; start < len(items) || start == 0; start += per {
		batch := items[start:min(start+per, len(items))]
		var argv []string
		if rep := o.val("I"); rep != "" {
			for _, a := range command {
				argv = append(argv, strings.ReplaceAll(a, rep, strings.Join(batch, " ")))
			}
		} else {
			argv = append(append(argv, command...), batch...)
		}
		if o.has("t") {
			fmt.Fprintln(c.stderr, strings.Join(argv, " "))
		}
		if st := c.reenter(argv); st != 0 {
			status = 123
			if st == 127 || st == 255 {
				return st
			}
		}
		if len(items) == 0 {
			break
		}
	}
	return status
}

// reenter runs argv as a command in a fresh interpreter sharing this
// command's directory, environment and streams.
func (c *cmd) reenter(argv []string) int { return c.reenterIn(c.dir, argv) }

// reenterIn is reenter starting in dir.
func (c *cmd) reenterIn(dir string, argv []string) int {
	quoted := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			q = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		quoted[i] = q
	}
	code, err := Run(c.ctx, dir, c.exported(), strings.Join(quoted, " "), c.stdin, c.stdout, c.stderr)
	if err != nil {
		c.fail("%v", err)
		return 1
	}
	return code
}

// exported returns the exported variables of the calling shell.
func (c *cmd) exported() map[string]string {
	env := map[string]string{}
	c.hc.Env.Each(func(name string, vr expand.Variable) bool {
		if vr.Exported && vr.IsSet() {
			env[name] = vr.String()
		}
		return true
	})
	return env
}
