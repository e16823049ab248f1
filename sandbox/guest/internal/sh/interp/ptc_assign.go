// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md).

package interp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"
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
		index = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: r.subscriptKey(sub)}}}
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

// elemValue is the current value of name[index], for a[i]+=x.
func (r *Runner) elemValue(name string, index syntax.ArithmExpr) string {
	w := &syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{
		Param: &syntax.Lit{Value: name}, Index: index,
	}}}
	s, err := expand.Literal(r.ecfg, w)
	r.expandErr(err)
	return s
}

func assocPairWords(elems []*syntax.ArrayElem) []*syntax.Word {
	words := make([]*syntax.Word, 0, len(elems))
	for _, e := range elems {
		if e.Value != nil {
			words = append(words, e.Value)
		}
	}
	return words
}

// subscriptKey expands the text of an associative array subscript given
// as a string (unset 'A["k"]', test -v 'A[$k]', printf -v 'A[k]'): quote
// removal and expansions, as bash applies them.
func (r *Runner) subscriptKey(sub string) string {
	var parts []string
	for w, err := range syntax.NewParser().WordsSeq(strings.NewReader(sub)) {
		if err != nil {
			return sub
		}
		parts = append(parts, r.literal(w))
	}
	return strings.Join(parts, " ")
}

// subscriptIndex evaluates the text of an indexed array subscript, with
// negative values counting from the end. ok is false for a bad one.
func (r *Runner) subscriptIndex(vr expand.Variable, sub string) (int, bool) {
	expr, err := syntax.NewParser().Arithmetic(strings.NewReader(sub))
	if err != nil || expr == nil {
		return 0, false
	}
	i, err := expand.Arithm(r.ecfg, expr)
	if err != nil {
		return 0, false
	}
	if i < 0 {
		max := len(vr.List) - 1
		if len(vr.Indexes) > 0 {
			max = vr.Indexes[len(vr.Indexes)-1]
		}
		if i += max + 1; i < 0 {
			return 0, false
		}
	}
	return i, true
}

// varIsSet is test -v: a variable, or an element NAME[SUB], is set.
func (r *Runner) varIsSet(x string) bool {
	name, sub, ok := cutElemSubscript(x)
	if !ok {
		return r.lookupVar(x).IsSet()
	}
	vr := r.lookupVar(name)
	if _, v := vr.Resolve(r.writeEnv); v.Kind != expand.NameRef {
		vr = v
	}
	switch vr.Kind {
	case expand.Associative:
		if sub == "@" || sub == "*" {
			return len(vr.Map) > 0
		}
		_, ok := vr.Map[r.subscriptKey(sub)]
		return ok
	case expand.Indexed:
		if sub == "@" || sub == "*" {
			return len(vr.List) > 0
		}
		i, ok := r.subscriptIndex(vr, sub)
		if !ok {
			return false
		}
		if vr.Indexes != nil {
			_, found := slices.BinarySearch(vr.Indexes, i)
			return found
		}
		return i < len(vr.List)
	case expand.String:
		i, ok := r.subscriptIndex(vr, sub)
		return ok && i == 0 && vr.IsSet()
	}
	return false
}

// declFromArgs runs export, readonly, declare, typeset or local reached
// as a plain command (an alias, $cmd, an assignment prefix), whose
// arguments are already expanded: upstream only knew them as keywords
// and failed with "unsupported builtin".
func (r *Runner) declFromArgs(ctx context.Context, name string, args []string) exitStatus {
	decl := &syntax.DeclClause{Variant: &syntax.Lit{Value: name}}
	for _, a := range args {
		decl.Args = append(decl.Args, &syntax.Assign{Naked: true, Value: &syntax.Word{
			Parts: []syntax.WordPart{&syntax.SglQuoted{Value: a}},
		}})
	}
	saved := r.exit
	r.exit = exitStatus{}
	r.cmd(ctx, decl)
	exit := r.exit
	r.exit = saved
	return exit
}
