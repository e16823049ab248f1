package shell

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"

	"mvdan.cc/sh/v3/syntax"
)

var miscCommands = map[string]builtinFunc{
	"true":     func(*cmd, []string) int { return 0 },
	"false":    func(*cmd, []string) int { return 1 },
	"env":      env,
	"printenv": printenv,
	"date":     date,
	"sleep":    sleep,
	"which":    which,
}

// env prints the environment, or runs a command (through the
// interpreter) with variables set (NAME=VALUE), removed (-u NAME) or
// cleared first (-i).
func env(c *cmd, args []string) int {
	vars := c.exported()
	end := "\n"
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-i" || a == "--ignore-environment" || a == "-":
			vars = map[string]string{}
		case a == "-0" || a == "--null":
			end = "\x00"
		case a == "-u" || a == "--unset":
			if i+1 >= len(args) {
				return c.usage(fmt.Errorf("option requires an argument -- 'u'"))
			}
			i++
			delete(vars, args[i])
		case strings.HasPrefix(a, "--unset="):
			delete(vars, strings.TrimPrefix(a, "--unset="))
		case strings.HasPrefix(a, "-u") && len(a) > 2:
			delete(vars, a[2:])
		case a == "--":
			i++
			goto assignments
		case strings.HasPrefix(a, "-") && len(a) > 1:
			return c.usage(fmt.Errorf("invalid option -- '%s'", strings.TrimLeft(a, "-")))
		default:
			goto assignments
		}
	}
assignments:
	for ; i < len(args); i++ {
		name, value, ok := strings.Cut(args[i], "=")
		if !ok || name == "" {
			break
		}
		vars[name] = value
	}
	if i < len(args) {
		st := c.reenterWith(c.dir, vars, args[i:])
		return st
	}
	lines := make([]string, 0, len(vars))
	for k, v := range vars {
		lines = append(lines, k+"="+v)
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Fprint(c.stdout, l+end)
	}
	return 0
}

// printenv prints the named exported variables' values (status 1 when
// one is not set), or the whole environment.
func printenv(c *cmd, args []string) int {
	if len(args) == 0 {
		return env(c, nil)
	}
	vars := c.exported()
	status := 0
	for _, name := range args {
		v, ok := vars[name]
		if !ok {
			status = 1
			continue
		}
		fmt.Fprintln(c.stdout, v)
	}
	return status
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
		if p, ok := LookCommand(a, c.hc.Env.Get("PATH").String()); ok {
			fmt.Fprintln(c.stdout, p)
			continue
		}
		if isShellBuiltin(a) {
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
	return c.reenterWith(dir, c.exported(), argv)
}

// reenterWith is reenterIn with exactly the environment vars.
func (c *cmd) reenterWith(dir string, vars map[string]string, argv []string) int {
	quoted := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			q = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		quoted[i] = q
	}
	code, err := Run(c.ctx, dir, vars, strings.Join(quoted, " "), c.stdin, c.stdout, c.stderr)
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
