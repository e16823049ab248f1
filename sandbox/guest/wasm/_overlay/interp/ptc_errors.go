// This file is ptc's, not mvdan.cc/sh's: the sandbox guest build adds it
// to the interp package (see sandbox/guest/wasm/gen).

package interp

import (
	"errors"

	"mvdan.cc/sh/v3/expand"
)

func isArithmError(err error) bool {
	var ae *expand.ArithmError
	return errors.As(err, &ae)
}

// arithErr reports an error of an arithmetic command ((( )), let, the
// header of a C-style for): like bash, the command fails with status 1
// and the shell goes on. The same error inside a $(( )) expansion ends
// the shell instead (see expandErr).
func (r *Runner) arithErr(err error) {
	if !isArithmError(err) {
		r.expandErr(err)
		return
	}
	r.errf("%v\n", err)
	r.exit.code = 1
}
