package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"syscall"
	"time"
)

var systemCommands = map[string]builtinFunc{
	"uname":   uname,
	"timeout": timeout,
	"expr":    exprCmd,
	"nproc":   func(c *cmd, _ []string) int { fmt.Fprintln(c.stdout, runtime.NumCPU()); return 0 },
	"yes":     yes,
}

// yes prints its arguments (or y) forever, until the reader goes away or
// the call's context ends.
func yes(c *cmd, args []string) int {
	line := "y\n"
	if len(args) > 0 {
		line = strings.Join(args, " ") + "\n"
	}
	chunk := []byte(strings.Repeat(line, max(1, 8192/len(line))))
	for c.ctx.Err() == nil {
		if _, err := c.stdout.Write(chunk); err != nil {
			return 141
		}
	}
	return 130
}

// machineName is uname -m for the architecture the code runs on; the wasm
// guest says so rather than guess the host's.
func machineName() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x86_64"
	case "arm64":
		return "aarch64"
	case "wasm":
		return "wasm32"
	}
	return runtime.GOARCH
}

// uname describes the sandbox: a Linux-like system whose kernel release
// and version are not known from inside it.
func uname(c *cmd, args []string) int {
	o, err := flagSpec{short: "asnrvmpio", permute: true, long: map[string]string{
		"all": "a", "kernel-name": "s", "nodename": "n", "kernel-release": "r", "kernel-version": "v",
		"machine": "m", "processor": "p", "hardware-platform": "i", "operating-system": "o",
	}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) > 0 {
		return c.usage(fmt.Errorf("extra operand '%s'", o.args[0]))
	}
	host := c.hc.Env.Get("HOSTNAME").String()
	if host == "" {
		host = "sandbox"
	}
	fields := []struct {
		flag, value string
	}{
		{"s", "Linux"}, {"n", host}, {"r", "unknown"}, {"v", "unknown"}, {"m", machineName()},
		{"p", "unknown"}, {"i", "unknown"}, {"o", "GNU/Linux"},
	}
	var out []string
	for _, f := range fields {
		all := o.has("a") && (f.value != "unknown" || f.flag == "r" || f.flag == "v")
		if o.has(f.flag) || all {
			out = append(out, f.value)
		}
	}
	if len(out) == 0 {
		out = []string{"Linux"}
	}
	fmt.Fprintln(c.stdout, strings.Join(out, " "))
	return 0
}

// parseDuration reads timeout/sleep durations: a number with an
// optional s, m, h or d suffix.
func parseDuration(s string) (time.Duration, error) {
	unit := time.Second
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 's':
			s = s[:n-1]
		case 'm':
			s, unit = s[:n-1], time.Minute
		case 'h':
			s, unit = s[:n-1], time.Hour
		case 'd':
			s, unit = s[:n-1], 24*time.Hour
		}
	}
	var f float64
	if _, err := fmt.Sscan(s, &f); err != nil || f < 0 {
		return 0, errors.New("invalid time interval")
	}
	return time.Duration(f * float64(unit)), nil
}

// timeout runs a command through the interpreter and stops it after the
// duration, exiting 124 as GNU timeout does (0 duration: no limit).
func timeout(c *cmd, args []string) int {
	i := 0
	preserve := false
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "-" {
		a := args[i]
		switch {
		case a == "--preserve-status":
			preserve = true
		case a == "--foreground" || a == "-v" || a == "--verbose":
		case a == "-s" || a == "-k" || a == "--signal" || a == "--kill-after":
			i++
		case strings.HasPrefix(a, "-s") || strings.HasPrefix(a, "-k") || strings.HasPrefix(a, "--signal=") || strings.HasPrefix(a, "--kill-after="):
		case a == "--":
			i++
			goto operands
		default:
			c.fail("invalid option -- '%s'", strings.TrimLeft(a, "-"))
			return 125
		}
		i++
	}
operands:
	if len(args)-i < 2 {
		c.fail("missing operand")
		return 125
	}
	d, err := parseDuration(args[i])
	if err != nil {
		c.fail("invalid time interval '%s'", args[i])
		return 125
	}
	ctx, cancel := c.ctx, context.CancelFunc(func() {})
	if d > 0 {
		ctx, cancel = context.WithTimeout(c.ctx, d)
	}
	defer cancel()
	sub := *c
	sub.ctx = ctx
	st := sub.reenter(args[i+1:])
	if ctx.Err() == context.DeadlineExceeded && c.ctx.Err() == nil {
		if preserve {
			return 128 + 15
		}
		return 124
	}
	return st
}

// isBrokenPipe reports whether err is a write to a pipe whose reader has
// gone (head has what it wanted).
func isBrokenPipe(err error) bool {
	return err != nil && (errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE))
}
