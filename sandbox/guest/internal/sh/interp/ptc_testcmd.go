// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). It is test and [ as
// POSIX and bash define them: the meaning depends on the number of
// arguments first ([ $var = -f ] compares strings even though -f is an
// operator; [ -z -a ] ] is -z AND ]), which upstream's recursive-descent
// parser gets wrong with a syntax error. Integer comparisons take decimal
// integers only and fail with status 2 otherwise ([ a -eq a ] was true),
// and [[ x -eq y ]] evaluates its operands as arithmetic, as in bash.

package interp

import (
	"context"
	"strconv"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"
	"mvdan.cc/sh/v3/syntax"
)

var unaryTests = map[string]syntax.UnTestOperator{
	"-e": syntax.TsExists, "-a": syntax.TsExists, "-f": syntax.TsRegFile, "-d": syntax.TsDirect,
	"-c": syntax.TsCharSp, "-b": syntax.TsBlckSp, "-p": syntax.TsNmPipe, "-S": syntax.TsSocket,
	"-L": syntax.TsSmbLink, "-h": syntax.TsSmbLink, "-k": syntax.TsSticky, "-g": syntax.TsGIDSet,
	"-u": syntax.TsUIDSet, "-G": syntax.TsGrpOwn, "-O": syntax.TsUsrOwn, "-N": syntax.TsModif,
	"-r": syntax.TsRead, "-w": syntax.TsWrite, "-x": syntax.TsExec, "-s": syntax.TsNoEmpty,
	"-t": syntax.TsFdTerm, "-z": syntax.TsEmpStr, "-n": syntax.TsNempStr, "-o": syntax.TsOptSet,
	"-v": syntax.TsVarSet, "-R": syntax.TsRefVar,
}

var binaryTests = map[string]syntax.BinTestOperator{
	"=": syntax.TsMatchShort, "==": syntax.TsMatch, "!=": syntax.TsNoMatch,
	"<": syntax.TsBefore, ">": syntax.TsAfter,
	"-eq": syntax.TsEql, "-ne": syntax.TsNeq, "-lt": syntax.TsLss, "-le": syntax.TsLeq,
	"-gt": syntax.TsGtr, "-ge": syntax.TsGeq,
	"-nt": syntax.TsNewer, "-ot": syntax.TsOlder, "-ef": syntax.TsDevIno,
}

// testError is a usage error of test: status 2.
type testError struct{ msg string }

func (e testError) Error() string { return e.msg }

type classicTest struct {
	r    *Runner
	ctx  context.Context
	name string // "test" or "["
}

// ptcTest runs test (or [, with its closing ] already removed).
func (r *Runner) ptcTest(ctx context.Context, name string, args []string) exitStatus {
	var exit exitStatus
	t := &classicTest{r: r, ctx: ctx, name: name}
	ok, err := t.eval(args)
	if err != nil {
		r.errf("%s: %v\n", name, err)
		exit.code = 2
		return exit
	}
	exit.oneIf(!ok)
	return exit
}

// eval decides by the number of arguments, as POSIX specifies for up to
// four, and parses with precedence beyond.
func (t *classicTest) eval(args []string) (bool, error) {
	switch len(args) {
	case 0:
		return false, nil
	case 1:
		return args[0] != "", nil
	case 2:
		if args[0] == "!" {
			return args[1] == "", nil
		}
		if _, ok := unaryTests[args[0]]; ok {
			return t.unary(args[0], args[1]), nil
		}
		return false, testError{args[0] + ": unary operator expected"}
	case 3:
		if _, ok := binaryTests[args[1]]; ok {
			return t.binary(args[0], args[1], args[2])
		}
		if args[1] == "-a" || args[1] == "-o" {
			l, r := args[0] != "", args[2] != ""
			if args[1] == "-a" {
				return l && r, nil
			}
			return l || r, nil
		}
		if args[0] == "!" {
			v, err := t.eval(args[1:])
			return !v, err
		}
		if args[0] == "(" && args[2] == ")" {
			return args[1] != "", nil
		}
		return false, testError{args[1] + ": binary operator expected"}
	case 4:
		if args[0] == "!" {
			v, err := t.eval(args[1:])
			return !v, err
		}
		if args[0] == "(" && args[3] == ")" {
			return t.eval(args[1:3])
		}
	}
	p := &testParser2{t: t, args: args}
	v, err := p.or()
	if err == nil && p.i < len(p.args) {
		err = testError{p.args[p.i] + ": syntax error"}
	}
	return v, err
}

func (t *classicTest) unary(op, x string) bool {
	return t.r.unTest(t.ctx, unaryTests[op], x)
}

func (t *classicTest) binary(x, op, y string) (bool, error) {
	o := binaryTests[op]
	switch o {
	case syntax.TsMatchShort, syntax.TsMatch:
		return x == y, nil
	case syntax.TsNoMatch:
		return x != y, nil
	case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq:
		a, err := testInt(x)
		if err != nil {
			return false, err
		}
		b, err := testInt(y)
		if err != nil {
			return false, err
		}
		return compareInts(o, a, b), nil
	}
	return t.r.binTest(t.ctx, o, x, y), nil
}

// testInt reads an operand of -eq and friends: a decimal integer with
// optional blanks and sign; no octal, hex or arithmetic.
func testInt(s string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, testError{s + ": integer expression expected"}
	}
	return n, nil
}

func compareInts(op syntax.BinTestOperator, a, b int64) bool {
	switch op {
	case syntax.TsEql:
		return a == b
	case syntax.TsNeq:
		return a != b
	case syntax.TsLss:
		return a < b
	case syntax.TsLeq:
		return a <= b
	case syntax.TsGtr:
		return a > b
	}
	return a >= b
}

// testParser2 parses five or more arguments: -o binds looser than -a,
// then !, parentheses, and primaries.
type testParser2 struct {
	t    *classicTest
	args []string
	i    int
}

func (p *testParser2) peek(n int) string {
	if p.i+n < len(p.args) {
		return p.args[p.i+n]
	}
	return ""
}

func (p *testParser2) more(n int) bool { return p.i+n < len(p.args) }

func (p *testParser2) or() (bool, error) {
	v, err := p.and()
	for err == nil && p.more(0) && p.peek(0) == "-o" {
		p.i++
		var w bool
		w, err = p.and()
		v = v || w
	}
	return v, err
}

func (p *testParser2) and() (bool, error) {
	v, err := p.not()
	for err == nil && p.more(0) && p.peek(0) == "-a" {
		p.i++
		var w bool
		w, err = p.not()
		v = v && w
	}
	return v, err
}

func (p *testParser2) not() (bool, error) {
	if p.more(1) && p.peek(0) == "!" {
		p.i++
		v, err := p.not()
		return !v, err
	}
	return p.primary()
}

func (p *testParser2) primary() (bool, error) {
	if !p.more(0) {
		return false, testError{"argument expected"}
	}
	a := p.peek(0)
	if a == "(" {
		p.i++
		v, err := p.or()
		if err != nil {
			return false, err
		}
		if p.peek(0) != ")" {
			return false, testError{"`)' expected"}
		}
		p.i++
		return v, nil
	}
	if _, ok := binaryTests[p.peek(1)]; ok && p.more(2) {
		p.i += 3
		return p.t.binary(a, p.args[p.i-2], p.args[p.i-1])
	}
	if _, ok := unaryTests[a]; ok && p.more(1) {
		p.i += 2
		return p.t.unary(a, p.args[p.i-1]), nil
	}
	p.i++
	return a != "", nil
}

// dbracketInts compares the operands of [[ x -eq y ]] as arithmetic
// expressions. ok is false for an operator that is not an integer
// comparison.
func (r *Runner) dbracketInts(op syntax.BinTestOperator, x, y string) (result, ok bool) {
	switch op {
	case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq:
	default:
		return false, false
	}
	a, errA := r.arithString(x)
	b, errB := r.arithString(y)
	if err := errA; err != nil || errB != nil {
		if err == nil {
			err = errB
		}
		r.errf("%v\n", err)
		r.exit.code = 1
		return false, true
	}
	return compareInts(op, int64(a), int64(b)), true
}

// arithString evaluates s as an arithmetic expression.
func (r *Runner) arithString(s string) (int, error) {
	if strings.TrimSpace(s) == "" {
		return 0, nil
	}
	expr, err := syntax.NewParser().Arithmetic(strings.NewReader(s))
	if err != nil {
		return 0, &expand.ArithmError{Expr: s, Msg: "syntax error in expression"}
	}
	if expr == nil {
		return 0, nil
	}
	return expand.Arithm(r.ecfg, expr)
}
