// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). It gives the shell
// variables bash sets that upstream does not: FUNCNAME, BASHPID, $_ (the
// last argument of the previous command; `mkdir -p d && cd $_` needs it),
// BASH, BASH_VERSION, BASH_VERSINFO, OSTYPE, HOSTTYPE, MACHTYPE, and PWD
// exported.

package interp

import (
	"os"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"
)

// subshellCount numbers subshells, so each has its own BASHPID.
var subshellCount atomic.Int64

// specialVar computes the variables of this file; ok is false for any
// other name.
func (r *Runner) specialVar(name string) (expand.Variable, bool) {
	switch name {
	case "FUNCNAME":
		if len(r.ptc.funcs) == 0 {
			return expand.Variable{}, true
		}
		list := slices.Clone(r.ptc.funcs)
		slices.Reverse(list)
		return expand.Variable{Set: true, Kind: expand.Indexed, List: list}, true
	case "PIPESTATUS":
		if r.ptc.pipeStatus == nil {
			return expand.Variable{}, false
		}
		return r.pipeStatusVar(), true
	case "_":
		return expand.Variable{Set: true, Kind: expand.String, Str: r.ptc.lastArg}, true
	case "BASHPID":
		return expand.Variable{Set: true, Kind: expand.String, Str: strconv.FormatInt(int64(os.Getpid())+r.ptc.subshell, 10)}, true
	}
	return expand.Variable{}, false
}

// bashStartupVars are set at start-up when the environment lacks them.
var bashStartupVars = []struct{ name, value string }{
	{"BASH", "/usr/bin/bash"},
	{"BASH_VERSION", "5.2.15(1)-release"},
	{"OSTYPE", "linux-gnu"},
	{"HOSTTYPE", "x86_64"},
	{"MACHTYPE", "x86_64-pc-linux-gnu"},
}

func (r *Runner) setStartupVars() {
	for _, v := range bashStartupVars {
		if !r.writeEnv.Get(v.name).IsSet() {
			r.setVarString(v.name, v.value)
		}
	}
	if !r.writeEnv.Get("BASH_VERSINFO").IsSet() {
		r.setVar("BASH_VERSINFO", expand.Variable{Set: true, Kind: expand.Indexed, ReadOnly: true,
			List: []string{"5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"}})
	}
	pwd := r.writeEnv.Get("PWD")
	pwd.Exported = true
	r.setVar("PWD", pwd)
}

// setLastArg sets $_ after a simple command.
func (r *Runner) setLastArg(fields []string) {
	r.ptc.lastArg = ""
	if len(fields) > 0 {
		r.ptc.lastArg = fields[len(fields)-1]
	}
}

// inFuncNamed runs f with name on the FUNCNAME stack.
func (r *Runner) inFuncNamed(name string, f func()) {
	r.ptc.funcs = append(r.ptc.funcs, name)
	defer func() { r.ptc.funcs = r.ptc.funcs[:len(r.ptc.funcs)-1] }()
	f()
}
