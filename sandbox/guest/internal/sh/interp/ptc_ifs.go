// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md).

package interp

import "github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"

// Get returns the variable name resolves to in this scope.
//
// Every expansion reads IFS first (expand's prepareConfig), a loop body
// several times per iteration, and IFS is usually unset, so each read
// missed the map of every scope and then searched the base environment:
// in the wasm guest a tenth of a plain loop's time. The scope keeps what
// IFS resolved to until its next Set. That is enough: a variable of an
// enclosing scope only changes through the innermost scope's Set (a
// function's scope hands writes to globals on to its parent's Set), and
// a scope made while IFS was cached starts with its own empty cache.
func (o *overlayEnviron) Get(name string) expand.Variable {
	if name != "IFS" {
		return o.getUncached(name)
	}
	if !o.ifsCached {
		o.ifs, o.ifsCached = o.getUncached(name), true
	}
	return o.ifs
}
