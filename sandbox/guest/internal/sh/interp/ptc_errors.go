// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md).

package interp

import (
	"context"
	"errors"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"
	"mvdan.cc/sh/v3/syntax"
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

// topStmts runs the top-level commands of a script: one that an
// expansion error abandoned ends with status 1 and the next one runs.
// Bash reads a line at a time, so the rest of the line goes too.
func (r *Runner) topStmts(ctx context.Context, stmts []*syntax.Stmt) {
	skipLine := uint(0)
	for _, st := range stmts {
		if st.Pos().Line() <= skipLine {
			continue
		}
		r.stmt(ctx, st)
		if r.exit.aborting {
			r.exit.aborting = false
			r.lastExit = r.exit
			skipLine = st.End().Line()
		}
	}
}
