// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md).

package interp

import "strconv"

// maxFuncDepth bounds function nesting when FUNCNEST does not set a
// lower limit. Without it `f() { f; }; f` grows the guest's stack until
// the Go runtime aborts (a minute later, with the output lost); bash
// itself has no default limit and crashes with SIGSEGV.
const maxFuncDepth = 4096

// enterFunc counts a function call, failing it as bash does at FUNCNEST
// ("maximum function nesting level exceeded"); the failure abandons the
// top-level command.
func (r *Runner) enterFunc(name string) bool {
	limit := maxFuncDepth
	if v := r.envGet("FUNCNEST"); v == "" {
		// unset, the usual case: Atoi("") would allocate its error
	} else if n, err := strconv.Atoi(v); err == nil && n > 0 && n < limit {
		limit = n
	}
	if r.ptc.funcDepth >= limit {
		r.errf("%s: maximum function nesting level exceeded (%d)\n", name, limit)
		r.exit.code = 1
		r.exit.aborting = true
		return false
	}
	r.ptc.funcDepth++
	return true
}

func (r *Runner) leaveFunc() { r.ptc.funcDepth-- }
