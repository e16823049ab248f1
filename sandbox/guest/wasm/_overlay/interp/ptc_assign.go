// This file is ptc's, not mvdan.cc/sh's: the sandbox guest build adds it
// to the interp package (see sandbox/guest/wasm/gen).

package interp

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// validAssignTarget reports whether name is a variable name or an array
// element NAME[SUBSCRIPT], as printf -v and read accept.
func validAssignTarget(name string) bool {
	if syntax.ValidName(name) {
		return true
	}
	_, _, ok := cutElemSubscript(name)
	return ok
}

// assignTarget assigns val to a variable or an array element named as
// printf -v and read name them.
func (r *Runner) assignTarget(name, val string) error {
	arr, sub, isElem := cutElemSubscript(name)
	if !isElem {
		return r.setVarErr(name, expand.Variable{Set: true, Kind: expand.String, Str: val})
	}
	prev := r.lookupVar(arr)
	var index syntax.ArithmExpr
	if prev.Kind == expand.Associative {
		index = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: sub}}}
	} else {
		expr, err := syntax.NewParser().Arithmetic(strings.NewReader(sub))
		if err != nil || expr == nil {
			return fmt.Errorf("%s: bad array subscript", name)
		}
		index = expr
	}
	code := r.exit.code
	r.setVarWithIndex(prev, arr, index, expand.Variable{Set: true, Kind: expand.String, Str: val})
	if r.exit.code != code {
		return fmt.Errorf("%s: cannot assign", name)
	}
	return nil
}
