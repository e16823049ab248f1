package ptc

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file reads a comparator's source text (as Function.prototype.toString
// gives it: esbuild's printing of the model's code) into a small
// expression tree, so that fastsort.go can tell which comparators order by
// keys. It knows the part of JavaScript comparators are written in — an
// arrow or function of two parameters whose body is an expression, or
// const declarations, ifs and returns, over property paths of the
// parameters, literals, arithmetic, comparisons, logical operators, the
// conditional operator and localeCompare — and rejects everything else
// (any other name, call or statement), so that a comparator it accepts
// depends on nothing but its two arguments.

// sx is a node of a comparator's expression.
type sx struct {
	op      string // sxKey, sxNum, sxStr, sxConst, sxLocale, "?:", "local" (a name, until fold resolves it), or the operator ("-", "||", "u-" for unary minus...)
	num     float64
	str     string   // a string literal, or the name of a constant (undefined, null, true, false)
	side    int      // sxKey: 0 for the first parameter, 1 for the second
	path    []string // sxKey: the properties read from the parameter
	x, y, z *sx
}

const (
	sxKey    = "key"
	sxNum    = "num"
	sxStr    = "str"
	sxConst  = "const"
	sxLocale = "localeCompare"
)

// parseComparator returns the expression a comparator's source computes,
// with its locals substituted and its ifs turned into conditionals; nil
// when the text is outside the part of JavaScript described above.
func parseComparator(src string) (e *sx) {
	if len(src) > maxComparatorText {
		return nil
	}
	p := &sxParser{toks: sxTokens(src)}
	if p.toks == nil || strings.Count(src, "if") > maxComparatorIfs {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(sxFail); !ok {
				panic(r)
			}
			e = nil
		}
	}()
	e = p.function()
	if p.pos != len(p.toks) {
		return nil
	}
	return e
}

// Comparators are short; these bounds keep the reader's recursion and the
// expression's size (each if shares the statements after it between its
// branches) small whatever text a program sorts with.
const (
	maxComparatorText = 1000
	maxComparatorIfs  = 6
)

// sxFail is raised (and recovered by parseComparator) on text the reader
// does not accept.
type sxFail struct{}

type sxParser struct {
	toks   []string
	pos    int
	params [2]string
}

func (p *sxParser) fail() { panic(sxFail{}) }

func (p *sxParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *sxParser) next() string {
	t := p.peek()
	if t == "" {
		p.fail()
	}
	p.pos++
	return t
}

func (p *sxParser) accept(t string) bool {
	if p.peek() == t {
		p.pos++
		return true
	}
	return false
}

func (p *sxParser) expect(t string) {
	if !p.accept(t) {
		p.fail()
	}
}

// function is `(a, b) => body` or `function name?(a, b) { ... }`.
func (p *sxParser) function() *sx {
	arrow := !p.accept("function")
	if !arrow && isIdent(p.peek()) && p.peek() != "(" {
		p.ident()
	}
	p.expect("(")
	p.params[0] = p.ident()
	p.expect(",")
	p.params[1] = p.ident()
	p.expect(")")
	if p.params[0] == p.params[1] {
		p.fail()
	}
	if arrow {
		p.expect("=>")
		if p.peek() != "{" {
			return p.fold([]sxStmt{{kind: "return", e: p.expr()}}, nil, nil)
		}
	}
	p.expect("{")
	return p.fold(p.statements(), &sx{op: sxConst, str: "undefined"}, nil)
}

// sxStmt is a statement of a comparator's body.
type sxStmt struct {
	kind      string // return, const, if, block
	name      string // const
	e         *sx    // return, const, if (the test)
	then, els []sxStmt
}

// statements reads statements up to the closing brace (consumed).
func (p *sxParser) statements() []sxStmt {
	var out []sxStmt
	for !p.accept("}") {
		if s, ok := p.statement(); ok {
			out = append(out, s)
		}
	}
	return out
}

// statement reads one statement; false for an empty one.
func (p *sxParser) statement() (sxStmt, bool) {
	switch t := p.next(); t {
	case ";":
		return sxStmt{}, false
	case "return":
		e := p.expr()
		p.accept(";")
		return sxStmt{kind: "return", e: e}, true
	case "const", "let":
		name := p.ident()
		p.expect("=")
		e := p.expr()
		p.accept(";")
		return sxStmt{kind: "const", name: name, e: e}, true
	case "if":
		p.expect("(")
		s := sxStmt{kind: "if", e: p.expr()}
		p.expect(")")
		s.then = p.single()
		if p.accept("else") {
			s.els = p.single()
		}
		return s, true
	case "{":
		return sxStmt{kind: "block", then: p.statements()}, true
	}
	p.fail()
	return sxStmt{}, false
}

// single reads the statement of an if branch as a list.
func (p *sxParser) single() []sxStmt {
	if s, ok := p.statement(); ok {
		return []sxStmt{s}
	}
	return nil
}

// fold turns statements into the expression they return: k when they
// fall off their end, env the locals in scope.
func (p *sxParser) fold(stmts []sxStmt, k *sx, env map[string]*sx) *sx {
	if len(stmts) == 0 {
		if k == nil {
			p.fail()
		}
		return k
	}
	s, rest := stmts[0], stmts[1:]
	switch s.kind {
	case "return":
		return subst(p, s.e, env)
	case "const":
		if _, ok := env[s.name]; ok || s.name == p.params[0] || s.name == p.params[1] {
			p.fail() // shadowing: not worth following
		}
		inner := map[string]*sx{s.name: subst(p, s.e, env)}
		for n, v := range env {
			inner[n] = v
		}
		return p.fold(rest, k, inner)
	case "if":
		tail := p.fold(rest, k, env)
		els := tail
		if s.els != nil {
			els = p.fold(s.els, tail, env)
		}
		return &sx{op: "?:", x: subst(p, s.e, env), y: p.fold(s.then, tail, env), z: els}
	}
	return p.fold(s.then, p.fold(rest, k, env), env) // a block
}

// subst replaces the locals in e by their values.
func subst(p *sxParser, e *sx, env map[string]*sx) *sx {
	if e == nil {
		return nil
	}
	if e.op == "local" {
		v, ok := env[e.str]
		if !ok {
			p.fail() // a global, a closure variable, a function
		}
		return v
	}
	c := *e
	c.x, c.y, c.z = subst(p, e.x, env), subst(p, e.y, env), subst(p, e.z, env)
	return &c
}

func (p *sxParser) ident() string {
	t := p.next()
	if !isIdent(t) || sxReserved[t] {
		p.fail()
	}
	return t
}

// Binary operators by precedence, loosest first.
var sxLevels = [][]string{
	{"||", "??"}, {"&&"}, {"===", "!==", "==", "!="}, {"<", ">", "<=", ">="}, {"+", "-"}, {"*", "/", "%"},
}

func (p *sxParser) expr() *sx {
	test := p.binary(0)
	if !p.accept("?") {
		return test
	}
	then := p.expr()
	p.expect(":")
	return &sx{op: "?:", x: test, y: then, z: p.expr()}
}

func (p *sxParser) binary(level int) *sx {
	if level == len(sxLevels) {
		return p.unary()
	}
	e := p.binary(level + 1)
	for {
		op := p.peek()
		found := false
		for _, o := range sxLevels[level] {
			found = found || o == op
		}
		if !found {
			return e
		}
		p.next()
		e = &sx{op: op, x: e, y: p.binary(level + 1)}
	}
}

func (p *sxParser) unary() *sx {
	switch p.peek() {
	case "-", "+", "!":
		op := "u" + p.next()
		return &sx{op: op, x: p.unary()}
	}
	return p.postfix(p.primary())
}

func (p *sxParser) primary() *sx {
	t := p.next()
	switch {
	case t == "(":
		e := p.expr()
		p.expect(")")
		return e
	case t[0] == '"' || t[0] == '\'':
		s, ok := unquoteJS(t)
		if !ok {
			p.fail()
		}
		return &sx{op: sxStr, str: s}
	case t[0] >= '0' && t[0] <= '9' || t[0] == '.':
		f, err := strconv.ParseFloat(t, 64)
		if err != nil {
			p.fail()
		}
		return &sx{op: sxNum, num: f}
	case t == p.params[0] || t == p.params[1]:
		side := 0
		if t == p.params[1] {
			side = 1
		}
		return &sx{op: sxKey, side: side}
	case t == "undefined" || t == "null" || t == "true" || t == "false":
		return &sx{op: sxConst, str: t}
	}
	if !isIdent(t) || sxReserved[t] {
		p.fail()
	}
	return &sx{op: "local", str: t} // resolved by fold
}

// postfix reads property reads on a parameter and a localeCompare call.
func (p *sxParser) postfix(e *sx) *sx {
	for {
		switch {
		case p.peek() == "." && p.pos+1 < len(p.toks) && p.toks[p.pos+1] == sxLocale:
			p.pos += 2
			p.expect("(")
			arg := p.expr()
			p.expect(")")
			e = &sx{op: sxLocale, x: e, y: arg}
		case p.accept("."):
			name := p.next() // any identifier name, reserved words included (o.default)
			if !isIdent(name) {
				p.fail()
			}
			e = p.member(e, name)
		case p.accept("["):
			t := p.next()
			name, ok := unquoteJS(t)
			if !ok {
				if _, err := strconv.ParseUint(t, 10, 31); err != nil {
					p.fail()
				}
				name = t
			}
			p.expect("]")
			e = p.member(e, name)
		default:
			return e
		}
	}
}

// member is e.name, allowed on a parameter's path only.
func (p *sxParser) member(e *sx, name string) *sx {
	if e.op != sxKey {
		p.fail()
	}
	return &sx{op: sxKey, side: e.side, path: append(append([]string(nil), e.path...), name)}
}

// sxReserved are words that cannot be a parameter or a local.
var sxReserved = map[string]bool{"function": true, "return": true, "const": true, "let": true, "var": true, "if": true, "else": true,
	"undefined": true, "null": true, "true": true, "false": true, "this": true, "arguments": true, "new": true, "typeof": true,
	"async": true, "await": true, "yield": true, "in": true, "of": true, "instanceof": true, "void": true, "delete": true}

func isIdent(t string) bool {
	if t == "" {
		return false
	}
	for i, r := range t {
		if !(r == '_' || r == '$' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// sxPunct are the punctuators the reader knows, longest first.
var sxPunct = []string{"===", "!==", "=>", "==", "!=", "<=", ">=", "||", "&&", "??",
	"(", ")", "{", "}", "[", "]", ";", ",", ".", "?", ":", "<", ">", "+", "-", "*", "/", "%", "!", "="}

// sxTokens splits src into tokens; nil when it holds anything the reader
// does not know (a comment, a template, a regexp, ?., **, ++...).
func sxTokens(src string) []string {
	var out []string
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				return nil
			}
			out = append(out, src[i:j+1])
			i = j + 1
			continue
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.' || src[j] == 'e' || src[j] == 'E' ||
				(src[j] == '-' || src[j] == '+') && (src[j-1] == 'e' || src[j-1] == 'E')) {
				j++
			}
			out = append(out, src[i:j])
			i = j
			continue
		case c == '_' || c == '$' || c >= utf8.RuneSelf || unicode.IsLetter(rune(c)):
			j := i
			for j < len(src) {
				r, n := utf8.DecodeRuneInString(src[j:])
				if !(r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
					break
				}
				j += n
			}
			if j == i {
				return nil
			}
			out = append(out, src[i:j])
			i = j
			continue
		}
		if strings.HasPrefix(src[i:], "//") || strings.HasPrefix(src[i:], "/*") || strings.HasPrefix(src[i:], "?.") ||
			strings.HasPrefix(src[i:], "**") || strings.HasPrefix(src[i:], "++") || strings.HasPrefix(src[i:], "--") {
			return nil
		}
		found := false
		for _, p := range sxPunct {
			if strings.HasPrefix(src[i:], p) {
				out = append(out, p)
				i += len(p)
				found = true
				break
			}
		}
		if !found {
			return nil
		}
	}
	return out
}

// unquoteJS reads a string literal without escapes other than \" \' \\;
// false for anything else.
func unquoteJS(t string) (string, bool) {
	if len(t) < 2 || (t[0] != '"' && t[0] != '\'') || t[len(t)-1] != t[0] {
		return "", false
	}
	body := t[1 : len(t)-1]
	if !strings.Contains(body, `\`) {
		return body, true
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' {
			i++
			if i == len(body) || !strings.ContainsRune(`"'\`, rune(body[i])) {
				return "", false
			}
		}
		b.WriteByte(body[i])
	}
	return b.String(), true
}
