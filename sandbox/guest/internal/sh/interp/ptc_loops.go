// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md).

package interp

import (
	"slices"
	"strconv"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"
	"mvdan.cc/sh/v3/syntax"
)

// ptcBreak is break and continue. A bad count is fatal, as in bash;
// upstream printed a usage line and let the loop go on, so `break $x`
// with a bad $x looped until the timeout.
func (r *Runner) ptcBreak(name string, args []string) exitStatus {
	var exit exitStatus
	if !r.inLoop {
		r.errf("%s: only meaningful in a `for', `while', or `until' loop\n", name)
		return exit
	}
	n := 1
	switch len(args) {
	case 0:
	case 1:
		v, err := strconv.Atoi(args[0])
		if err != nil {
			r.errf("%s: %s: numeric argument required\n", name, args[0])
			exit.code, exit.exiting = 128, true
			return exit
		}
		if v < 1 {
			r.errf("%s: %s: loop count out of range\n", name, args[0])
			exit.code = 1
			return exit
		}
		n = v
	default:
		r.errf("%s: too many arguments\n", name)
		exit.code, exit.exiting = 1, true
		return exit
	}
	if name == "break" {
		r.breakEnclosing = n
	} else {
		r.contnEnclosing = n
	}
	return exit
}

func (r *Runner) lastPipe() bool {
	on, _ := r.shoptValue("lastpipe")
	return on
}

// stageStatuses is the statuses of the stages of the left side of a
// pipe: all of them when it is itself a pipeline.
func stageStatuses(r2 *Runner, x *syntax.Stmt) []int {
	if b, ok := x.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && !x.Negated {
		return slices.Clone(r2.ptc.pipeStatus)
	}
	return []int{int(r2.exit.code)}
}

// setPipeStatus sets PIPESTATUS, as bash does after every pipeline (a
// simple command is a pipeline of one).
func (r *Runner) setPipeStatus(codes []int) {
	r.ptc.pipeStatus = append(r.ptc.pipeStatus[:0], codes...)
}

// setPipeStatus1 is setPipeStatus for a single command, without
// allocating.
func (r *Runner) setPipeStatus1(code int) {
	r.ptc.pipeStatus = append(r.ptc.pipeStatus[:0], code)
}

// pipeStatusVar is PIPESTATUS as a variable.
func (r *Runner) pipeStatusVar() expand.Variable {
	list := make([]string, len(r.ptc.pipeStatus))
	for i, c := range r.ptc.pipeStatus {
		list[i] = strconv.Itoa(c)
	}
	return expand.Variable{Set: true, Kind: expand.Indexed, List: list}
}
