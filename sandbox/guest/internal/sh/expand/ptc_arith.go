// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). It replaces the body
// of Arithm with an evaluator that follows bash:
//
//   - array elements are lvalues: a[i]=1, a[i]++, A[key]+=2 (upstream
//     reads the lvalue name with Word.Lit, which is "" for a[i], and the
//     interpreter then panics on the empty name);
//   - a variable's value is itself an arithmetic expression (x='1+2'),
//     evaluated recursively with bash's depth limit;
//   - constants follow bash: 0x1f, 017, 2#101, 64#@_, and a malformed one
//     ("08", "1x") is an error instead of a silent 0;
//   - division by zero, negative exponents and syntax errors are
//     *ArithmError values the interpreter reports like bash does;
//   - shift counts are masked like on the CPUs bash runs on, so a huge or
//     negative count cannot panic.

package expand

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/internal"
	"mvdan.cc/sh/v3/syntax"
)

// ArithmError is a failed arithmetic evaluation. Bash reports it as
// "EXPR: MSG (error token is "TOKEN")" and, inside an expansion, abandons
// the whole command line.
type ArithmError struct {
	Expr  string // the expression being evaluated
	Msg   string
	Token string // the offending token, "" when there is none
}

func (e *ArithmError) Error() string {
	if e.Token == "" {
		return fmt.Sprintf("%s: %s", e.Expr, e.Msg)
	}
	return fmt.Sprintf("%s: %s (error token is %q)", e.Expr, e.Msg, e.Token)
}

// arithMaxDepth is bash's EXP_STACK limit on nested evaluations of
// variable values.
const arithMaxDepth = 1024

type arithEval struct {
	cfg   *Config
	depth int
	top   syntax.ArithmExpr // for error messages
}

func ptcArithm(cfg *Config, expr syntax.ArithmExpr) (int, error) {
	cfg = prepareConfig(cfg)
	a := &arithEval{cfg: cfg, top: expr}
	n, err := a.eval(expr)
	return int(n), err
}

func (a *arithEval) fail(msg, token string) error {
	return &ArithmError{Expr: arithString(a.top), Msg: msg, Token: token}
}

// arithString prints an arithmetic expression compactly, for messages and
// for the keys of associative arrays. (The syntax printer puts line
// continuations between nodes that lack positions.)
func arithString(expr syntax.ArithmExpr) string {
	var sb strings.Builder
	writeArith(&sb, expr)
	return sb.String()
}

func writeArith(sb *strings.Builder, expr syntax.ArithmExpr) {
	switch x := expr.(type) {
	case *syntax.Word:
		if lit := x.Lit(); lit != "" {
			sb.WriteString(lit)
			return
		}
		syntax.NewPrinter().Print(sb, x)
	case *syntax.ParenArithm:
		sb.WriteByte('(')
		writeArith(sb, x.X)
		sb.WriteByte(')')
	case *syntax.UnaryArithm:
		if x.Post {
			writeArith(sb, x.X)
			sb.WriteString(x.Op.String())
			return
		}
		sb.WriteString(x.Op.String())
		writeArith(sb, x.X)
	case *syntax.BinaryArithm:
		writeArith(sb, x.X)
		sb.WriteString(x.Op.String())
		writeArith(sb, x.Y)
	}
}

func (a *arithEval) eval(expr syntax.ArithmExpr) (int64, error) {
	switch x := expr.(type) {
	case *syntax.Word:
		if lv, ok, err := a.lvalue(x); ok || err != nil {
			if err != nil {
				return 0, err
			}
			return a.load(lv)
		}
		for _, p := range x.Parts {
			if _, ok := p.(*syntax.SglQuoted); ok {
				// bash expands an arithmetic expression as if in double
				// quotes: a single quote is a character, not an operand
				return 0, a.fail("syntax error: operand expected", arithString(x))
			}
		}
		s, err := Literal(a.cfg, x)
		if err != nil {
			return 0, err
		}
		return a.value(s)
	case *syntax.ParenArithm:
		return a.eval(x.X)
	case *syntax.UnaryArithm:
		return a.unary(x)
	case *syntax.BinaryArithm:
		return a.binary(x)
	case *syntax.FlagsArithm: // zsh's ${a[(r)b]}
		return 0, fmt.Errorf("unsupported")
	}
	return 0, a.fail("syntax error: operand expected", "")
}

// value evaluates the string value of a word or variable: a constant, the
// name of another variable, or an expression of its own.
func (a *arithEval) value(s string) (int64, error) {
	t := strings.TrimSpace(s)
	switch {
	case t == "":
		return 0, nil
	case t[0] >= '0' && t[0] <= '9':
		if n, ok := parseArithNumber(t); ok {
			return n, nil
		}
		if !strings.ContainsAny(t, " \t\n+-*/%<>=!&|^~?:,()[]") {
			if strings.ContainsAny(t, "#") || isDigits(t) {
				return 0, a.fail("value too great for base", t)
			}
			return 0, a.fail("invalid arithmetic operator", t)
		}
	case syntax.ValidName(t):
		return a.variable(t)
	}
	if a.depth++; a.depth > arithMaxDepth {
		return 0, a.fail("expression recursion level exceeded", t)
	}
	defer func() { a.depth-- }()
	expr, err := syntax.NewParser().Arithmetic(strings.NewReader(t))
	if err != nil {
		return 0, a.fail("syntax error in expression", t)
	}
	if expr == nil {
		return 0, nil
	}
	return a.eval(expr)
}

func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// variable evaluates a variable named in an expression: unset and empty
// are 0, anything else is evaluated in turn.
func (a *arithEval) variable(name string) (int64, error) {
	if name == "LINENO" && a.top != nil {
		return int64(a.top.Pos().Line()), nil
	}
	vr := a.cfg.Env.Get(name)
	if _, v := vr.Resolve(a.cfg.Env); v.Kind != NameRef {
		vr = v
	}
	if !vr.IsSet() {
		if a.cfg.NoUnset {
			return 0, UnsetParameterError{Node: &syntax.ParamExp{Param: &syntax.Lit{Value: name}}, Message: "unbound variable"}
		}
		return 0, nil
	}
	s := vr.String()
	if vr.Kind == Associative {
		s = vr.Map["0"]
	}
	if a.depth++; a.depth > arithMaxDepth {
		return 0, a.fail("expression recursion level exceeded", name)
	}
	defer func() { a.depth-- }()
	return a.value(s)
}

// parseArithNumber parses a bash integer constant: decimal, 0 octal,
// 0x hexadecimal, or BASE#DIGITS with bases 2 to 64.
func parseArithNumber(s string) (int64, bool) {
	base := uint64(10)
	digits := s
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, digits = 16, s[2:]
		if digits == "" {
			return 0, true // bash reads a bare "0x" as 0
		}
	case len(s) > 1 && s[0] == '0':
		base, digits = 8, s[1:]
	default:
		if b, d, ok := strings.Cut(s, "#"); ok {
			n, err := strconv.ParseUint(b, 10, 8)
			if err != nil || n < 2 || n > 64 || d == "" {
				return 0, false
			}
			base, digits = n, d
		}
	}
	var n uint64
	for i := range len(digits) {
		d, ok := arithDigit(digits[i], base)
		if !ok {
			return 0, false
		}
		n = n*base + d
	}
	return int64(n), true
}

// arithDigit is the value of c as a digit in base: 0-9, then a-z, A-Z,
// '@' and '_'; below base 37 letters are case-insensitive, as in bash.
func arithDigit(c byte, base uint64) (uint64, bool) {
	var d uint64
	switch {
	case c >= '0' && c <= '9':
		d = uint64(c - '0')
	case c >= 'a' && c <= 'z':
		d = uint64(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		d = uint64(c-'A') + 10
		if base > 36 {
			d += 26
		}
	case c == '@':
		d = 62
	case c == '_':
		d = 63
	default:
		return 0, false
	}
	return d, d < base
}

// lvalue is an assignable place: a variable, an element of an indexed
// array, or a key of an associative array.
type lvalue struct {
	name    string
	indexed bool  // an element of an indexed array (or of a scalar)
	index   int64 // the element, negative ones already resolved
	assoc   bool  // a key of an associative array
	key     string
	// badIndex is a negative subscript beyond the first element.
	badIndex string
}

// lvalue recognises a word that names a place: a bare name or a[i]. ok is
// false for any other word (a constant, $x, ...).
func (a *arithEval) lvalue(w *syntax.Word) (*lvalue, bool, error) {
	if name := w.Lit(); syntax.ValidName(name) {
		return &lvalue{name: name}, true, nil
	}
	if len(w.Parts) != 1 {
		return nil, false, nil
	}
	pe, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok || pe.Dollar.IsValid() || !pe.Short || pe.Index == nil || pe.Param == nil {
		return nil, false, nil
	}
	lv := &lvalue{name: pe.Param.Value}
	vr := a.cfg.Env.Get(lv.name)
	if n, v := vr.Resolve(a.cfg.Env); n != "" {
		lv.name, vr = n, v
	}
	if vr.Kind == Associative {
		key, err := a.cfg.assocKey(pe.Index)
		if err != nil {
			return nil, true, err
		}
		lv.assoc, lv.key = true, key
		return lv, true, nil
	}
	i, err := a.eval(pe.Index)
	if err != nil {
		return nil, true, err
	}
	if i < 0 {
		list, indexes := vr.List, vr.Indexes
		if vr.Kind == String {
			list, indexes = []string{vr.Str}, nil
		}
		if i += int64(internal.IndexedMax(list, indexes)) + 1; i < 0 {
			lv.badIndex = arithString(pe.Index) // reads as 0, assignments fail
		}
	}
	lv.indexed, lv.index = true, i
	return lv, true, nil
}

func (a *arithEval) load(lv *lvalue) (int64, error) {
	if lv.badIndex != "" {
		return 0, nil
	}
	if !lv.indexed && !lv.assoc {
		return a.variable(lv.name)
	}
	vr := a.cfg.Env.Get(lv.name)
	if _, v := vr.Resolve(a.cfg.Env); v.Kind != NameRef {
		vr = v
	}
	var s string
	switch {
	case lv.assoc:
		s = vr.Map[lv.key]
	case vr.Kind == Indexed:
		s, _ = vr.indexedVal(int(lv.index))
	case vr.Kind == String && lv.index == 0:
		s = vr.Str
	}
	if a.depth++; a.depth > arithMaxDepth {
		return 0, a.fail("expression recursion level exceeded", lv.name)
	}
	defer func() { a.depth-- }()
	return a.value(s)
}

func (a *arithEval) store(lv *lvalue, n int64) error {
	if lv.badIndex != "" {
		return a.fail("bad array subscript", lv.badIndex)
	}
	wenv, ok := a.cfg.Env.(WriteEnviron)
	if !ok {
		return fmt.Errorf("environment is read-only")
	}
	val := strconv.FormatInt(n, 10)
	vr := a.cfg.Env.Get(lv.name)
	if nm, v := vr.Resolve(a.cfg.Env); nm != "" {
		lv.name, vr = nm, v
	}
	vr.Set = true
	switch {
	case lv.assoc:
		vr.Map = maps.Clone(vr.Map)
		if vr.Map == nil {
			vr.Map = map[string]string{}
		}
		vr.Map[lv.key] = val
	case lv.indexed:
		list, indexes := slices.Clone(vr.List), slices.Clone(vr.Indexes)
		if vr.Kind != Indexed {
			list, indexes = nil, nil
			if vr.Kind == String {
				list = []string{vr.Str}
			}
		}
		vr.List, vr.Indexes = internal.SetIndexedElem(list, indexes, int(lv.index), val)
		vr.Kind, vr.Str = Indexed, ""
	case vr.Kind == Indexed:
		vr.List, vr.Indexes = internal.SetIndexedElem(slices.Clone(vr.List), slices.Clone(vr.Indexes), 0, val)
	case vr.Kind == Associative:
		vr.Map = maps.Clone(vr.Map)
		vr.Map["0"] = val
	default:
		vr.Kind, vr.Str = String, val
	}
	return wenv.Set(lv.name, vr)
}

// place returns the lvalue an assignment or ++/-- applies to.
func (a *arithEval) place(x syntax.ArithmExpr) (*lvalue, error) {
	if w, ok := x.(*syntax.Word); ok {
		lv, ok, err := a.lvalue(w)
		if err != nil || ok {
			return lv, err
		}
	}
	return nil, a.fail("attempted assignment to non-variable", arithString(x))
}

func (a *arithEval) unary(x *syntax.UnaryArithm) (int64, error) {
	switch x.Op {
	case syntax.Inc, syntax.Dec:
		lv, err := a.place(x.X)
		if err != nil {
			return 0, err
		}
		old, err := a.load(lv)
		if err != nil {
			return 0, err
		}
		val := old + 1
		if x.Op == syntax.Dec {
			val = old - 1
		}
		if err := a.store(lv, val); err != nil {
			return 0, err
		}
		if x.Post {
			return old, nil
		}
		return val, nil
	}
	val, err := a.eval(x.X)
	if err != nil {
		return 0, err
	}
	switch x.Op {
	case syntax.Not:
		return b2i(val == 0), nil
	case syntax.BitNegation:
		return ^val, nil
	case syntax.Plus:
		return val, nil
	case syntax.Minus:
		return -val, nil
	}
	return 0, fmt.Errorf("unsupported unary arithmetic operator: %q", x.Op)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// assignOps maps each compound assignment to its binary operator.
var assignOps = map[syntax.BinAritOperator]syntax.BinAritOperator{
	syntax.AddAssgn: syntax.Add, syntax.SubAssgn: syntax.Sub,
	syntax.MulAssgn: syntax.Mul, syntax.QuoAssgn: syntax.Quo,
	syntax.RemAssgn: syntax.Rem, syntax.AndAssgn: syntax.And,
	syntax.OrAssgn: syntax.Or, syntax.XorAssgn: syntax.Xor,
	syntax.ShlAssgn: syntax.Shl, syntax.ShrAssgn: syntax.Shr,
}

func (a *arithEval) binary(x *syntax.BinaryArithm) (int64, error) {
	switch x.Op {
	case syntax.Assgn:
		lv, err := a.place(x.X)
		if err != nil {
			return 0, err
		}
		val, err := a.eval(x.Y)
		if err != nil {
			return 0, err
		}
		return val, a.store(lv, val)
	case syntax.TernQuest:
		cond, err := a.eval(x.X)
		if err != nil {
			return 0, err
		}
		alt, ok := x.Y.(*syntax.BinaryArithm)
		if !ok || alt.Op != syntax.TernColon {
			return 0, a.fail("`:' expected for conditional expression", "")
		}
		if cond != 0 {
			return a.eval(alt.X)
		}
		return a.eval(alt.Y)
	case syntax.AndArit, syntax.OrArit:
		left, err := a.eval(x.X)
		if err != nil {
			return 0, err
		}
		if (x.Op == syntax.AndArit) != (left != 0) {
			return b2i(left != 0), nil
		}
		right, err := a.eval(x.Y)
		if err != nil {
			return 0, err
		}
		return b2i(right != 0), nil
	}
	if op, ok := assignOps[x.Op]; ok {
		lv, err := a.place(x.X)
		if err != nil {
			return 0, err
		}
		old, err := a.load(lv)
		if err != nil {
			return 0, err
		}
		arg, err := a.eval(x.Y)
		if err != nil {
			return 0, err
		}
		val, err := a.apply(op, old, arg, x.Y)
		if err != nil {
			return 0, err
		}
		return val, a.store(lv, val)
	}
	left, err := a.eval(x.X)
	if err != nil {
		return 0, err
	}
	right, err := a.eval(x.Y)
	if err != nil {
		return 0, err
	}
	return a.apply(x.Op, left, right, x.Y)
}

func (a *arithEval) apply(op syntax.BinAritOperator, x, y int64, yExpr syntax.ArithmExpr) (int64, error) {
	switch op {
	case syntax.Add:
		return x + y, nil
	case syntax.Sub:
		return x - y, nil
	case syntax.Mul:
		return x * y, nil
	case syntax.Quo, syntax.Rem:
		if y == 0 {
			return 0, a.fail("division by 0", arithString(yExpr))
		}
		if op == syntax.Quo {
			return x / y, nil
		}
		return x % y, nil
	case syntax.Pow:
		if y < 0 {
			return 0, a.fail("exponent less than 0", arithString(yExpr))
		}
		p := int64(1)
		for ; y > 0; y >>= 1 {
			if y&1 != 0 {
				p *= x
			}
			x *= x
		}
		return p, nil
	case syntax.Eql:
		return b2i(x == y), nil
	case syntax.Gtr:
		return b2i(x > y), nil
	case syntax.Lss:
		return b2i(x < y), nil
	case syntax.Neq:
		return b2i(x != y), nil
	case syntax.Leq:
		return b2i(x <= y), nil
	case syntax.Geq:
		return b2i(x >= y), nil
	case syntax.And:
		return x & y, nil
	case syntax.Or:
		return x | y, nil
	case syntax.Xor:
		return x ^ y, nil
	case syntax.Shl:
		return x << (uint64(y) & 63), nil
	case syntax.Shr:
		return x >> (uint64(y) & 63), nil
	case syntax.Comma:
		return y, nil
	}
	return 0, fmt.Errorf("unsupported binary arithmetic operator: %q", op)
}

// AssocKey is the key an associative array subscript names, for the
// interpreter's assignments; see assocKey.
func AssocKey(cfg *Config, idx syntax.ArithmExpr) (string, error) {
	return prepareConfig(cfg).assocKey(idx)
}

// assocKey is the key an associative array subscript names: the expanded
// word, or the text of an expression bash never evaluates (A[i+1] is the
// key "i+1"). Upstream asserts the subscript is a *syntax.Word and panics
// on an expression.
func (cfg *Config) assocKey(idx syntax.ArithmExpr) (string, error) {
	if w, ok := idx.(*syntax.Word); ok {
		return Literal(cfg, w)
	}
	return arithString(idx), nil
}
