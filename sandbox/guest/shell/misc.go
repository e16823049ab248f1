package shell

import (
	"fmt"
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
