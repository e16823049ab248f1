// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). It is trap and kill
// as bash has them: upstream's trap knows only EXIT and ERR (trap ... INT
// failed with "invalid signal specification", so scripts that clean up on
// INT/TERM died at the trap line), has no -p or -l, and prints handlers in
// Go's quoting; there was no kill. The sandbox delivers no signals from
// outside, but kill -SIG $$ runs the shell's own trap, as in bash.

package interp

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// signalNames are the Linux signals by number, without SIG.
var signalNames = []string{
	"EXIT", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1",
	"SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP",
	"TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS",
}

// trapOrder is where a pseudo-signal sorts when traps are printed.
var pseudoSignals = map[string]int{"DEBUG": 100, "ERR": 101, "RETURN": 102}

// parseSignal reads a signal as trap and kill take it: a number, or a
// name with or without SIG, in any case. It returns the canonical name.
func parseSignal(s string) (string, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		if n >= 0 && n < len(signalNames) {
			return signalNames[n], true
		}
		return "", false
	}
	u := strings.TrimPrefix(strings.ToUpper(s), "SIG")
	if _, ok := pseudoSignals[u]; ok {
		return u, true
	}
	for _, n := range signalNames {
		if n == u {
			return n, true
		}
	}
	return "", false
}

func signalNumber(name string) int {
	if n, ok := pseudoSignals[name]; ok {
		return n
	}
	return slices.Index(signalNames, name)
}

// printedSignal is how trap -p names a signal: EXIT and the pseudo
// signals bare, the others with SIG.
func printedSignal(name string) string {
	if name == "EXIT" || pseudoSignals[name] != 0 {
		return name
	}
	return "SIG" + name
}

func (r *Runner) setTrap(name, handler string, reset bool) {
	r.ptc.traps = maps.Clone(r.ptc.traps)
	if r.ptc.traps == nil {
		r.ptc.traps = map[string]string{}
	}
	if reset {
		delete(r.ptc.traps, name)
		handler = ""
	} else {
		r.ptc.traps[name] = handler
	}
	switch name {
	case "EXIT":
		r.callbackExit = handler
	case "ERR":
		r.callbackErr = handler
	}
}

func (r *Runner) ptcTrap(args []string) exitStatus {
	var exit exitStatus
	print := false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		switch args[0] {
		case "--":
			args = args[1:]
			goto operands
		case "-p":
			print = true
		case "-l":
			for i, n := range signalNames[1:] {
				r.outf("%2d) SIG%s\n", i+1, n)
			}
			return exit
		default:
			r.errf("trap: %s: invalid option\ntrap: usage: trap [-lp] [[arg] signal_spec ...]\n", args[0])
			exit.code = 2
			return exit
		}
		args = args[1:]
	}
operands:
	if print || len(args) == 0 {
		r.printTraps(args)
		return exit
	}
	handler, sigs, reset := args[0], args[1:], false
	if _, err := strconv.Atoi(args[0]); err == nil || len(args) == 1 || args[0] == "-" {
		// trap 0 2, trap INT, trap - INT: reset to the default
		reset = true
		if args[0] == "-" {
			sigs = args[1:]
		} else {
			sigs = args
		}
	}
	for _, s := range sigs {
		name, ok := parseSignal(s)
		if !ok {
			r.errf("trap: %s: invalid signal specification\n", s)
			exit.code = 1
			continue
		}
		r.setTrap(name, handler, reset)
	}
	return exit
}

func (r *Runner) printTraps(only []string) {
	names := slices.Collect(maps.Keys(r.ptc.traps))
	if len(only) > 0 {
		names = names[:0]
		for _, s := range only {
			if n, ok := parseSignal(s); ok {
				if _, set := r.ptc.traps[n]; set {
					names = append(names, n)
				}
			}
		}
	}
	slices.SortFunc(names, func(a, b string) int { return signalNumber(a) - signalNumber(b) })
	for _, n := range names {
		r.outf("trap -- %s %s\n", quoteQSingle(r.ptc.traps[n]), printedSignal(n))
	}
}

// quoteQSingle quotes s in single quotes, as trap -p prints handlers.
func quoteQSingle(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ptcKill is kill for what exists in the sandbox: the shell itself ($$)
// and its background jobs ($! and %N). A signal to the shell runs its
// trap, or ends it with 128+N as the default action would; a job is only
// checked for with kill -0.
func (r *Runner) ptcKill(ctx context.Context, args []string) exitStatus {
	var exit exitStatus
	sig := "TERM"
	if len(args) > 0 && args[0] == "-l" {
		r.out(strings.Join(signalNames[1:], " ") + "\n")
		return exit
	}
	if len(args) > 1 && (args[0] == "-s" || args[0] == "-n") {
		args = append([]string{"-" + args[1]}, args[2:]...)
	}
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && args[0] != "--" {
		name, ok := parseSignal(args[0][1:])
		if !ok {
			r.errf("kill: %s: invalid signal specification\n", args[0][1:])
			exit.code = 1
			return exit
		}
		sig, args = name, args[1:]
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		r.errf("kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n")
		exit.code = 2
		return exit
	}
	for _, target := range args {
		switch {
		case target == r.envGet("$"):
			if sig == "EXIT" { // kill -0: the shell exists
				continue
			}
			exit = r.deliver(ctx, sig)
			if exit.exiting {
				return exit
			}
		case r.bgJob(target) >= 0:
			if sig != "EXIT" {
				r.errf("kill: (%s) - Operation not permitted in the sandbox\n", target)
				exit.code = 1
			}
		default:
			r.errf("kill: (%s) - No such process\n", target)
			exit.code = 1
		}
	}
	return exit
}

// bgJob returns the index of the background job target names (g3, %3),
// or -1.
func (r *Runner) bgJob(target string) int {
	t := strings.TrimPrefix(strings.TrimPrefix(target, "%"), "g")
	n, err := strconv.Atoi(t)
	if err != nil || n < 1 || n > len(r.bgProcs) {
		return -1
	}
	return n - 1
}

// deliver acts on a signal sent to the shell itself.
func (r *Runner) deliver(ctx context.Context, sig string) exitStatus {
	var exit exitStatus
	handler, trapped := r.ptc.traps[sig]
	switch {
	case trapped && handler != "":
		r.trapCallback(ctx, handler, strings.ToLower(sig))
	case trapped: // trap '' SIG: ignored
	case sig == "CHLD" || sig == "URG" || sig == "WINCH" || sig == "CONT":
		// ignored by default
	default:
		exit.code = uint8(128 + signalNumber(sig))
		exit.exiting = true
	}
	return exit
}
