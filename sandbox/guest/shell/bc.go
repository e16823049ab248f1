package shell

import (
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
)

var bcCommands = map[string]builtinFunc{"bc": bcCmd}

// bcNum is a bc number: the integer n scaled by 10^-scale, as bc keeps
// decimals (results are truncated, never rounded, to their scale).
type bcNum struct {
	n     *big.Int
	scale int
}

var bigTen = big.NewInt(10)

func pow10(k int) *big.Int { return new(big.Int).Exp(bigTen, big.NewInt(int64(k)), nil) }

// rescale returns x with the given scale, truncating toward zero.
func (x bcNum) rescale(scale int) bcNum {
	switch {
	case scale == x.scale:
		return x
	case scale > x.scale:
		return bcNum{new(big.Int).Mul(x.n, pow10(scale-x.scale)), scale}
	}
	return bcNum{new(big.Int).Quo(x.n, pow10(x.scale-scale)), scale}
}

func (x bcNum) isZero() bool { return x.n.Sign() == 0 }

// String prints x as bc does: no leading zero before the point.
func (x bcNum) String() string {
	neg := x.n.Sign() < 0
	digits := new(big.Int).Abs(x.n).String()
	if x.scale > 0 {
		if len(digits) <= x.scale {
			digits = strings.Repeat("0", x.scale-len(digits)+1) + digits
		}
		intPart, frac := digits[:len(digits)-x.scale], digits[len(digits)-x.scale:]
		if intPart == "0" {
			intPart = ""
		}
		digits = intPart + "." + frac
	}
	if neg && x.n.Sign() != 0 {
		digits = "-" + digits
	}
	return digits
}

// bcRat converts x to an exact rational.
func (x bcNum) rat() *big.Rat { return new(big.Rat).SetFrac(x.n, pow10(x.scale)) }

// fromRat truncates r to scale digits.
func fromRat(r *big.Rat, scale int) bcNum {
	num := new(big.Int).Mul(r.Num(), pow10(scale))
	return bcNum{num.Quo(num, r.Denom()), scale}
}

// bcParser evaluates bc statements: numbers, variables, scale/ibase/obase,
// + - * / % ^ with bc's scale rules, comparisons, ++/--, assignment
// operators, parentheses, sqrt() length() scale() and with -l the
// library functions s c a l e.
type bcParser struct {
	toks  []string
	i     int
	vars  map[string]bcNum
	scale int
	ibase int
	obase int
	math  bool
}

func bcTokens(src string) []string {
	var out []string
	for i := 0; i < len(src); {
		ch := src[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\r':
			i++
		case ch == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case ch == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				i = len(src)
			} else {
				i += end + 4
			}
		case ch == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
		case ch >= '0' && ch <= '9' || ch == '.' || ch >= 'A' && ch <= 'F':
			j := i
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.' || src[j] >= 'A' && src[j] <= 'F') {
				j++
			}
			out = append(out, src[i:j])
			i = j
		case ch >= 'a' && ch <= 'z' || ch == '_':
			j := i
			for j < len(src) && (src[j] >= 'a' && src[j] <= 'z' || src[j] >= '0' && src[j] <= '9' || src[j] == '_') {
				j++
			}
			out = append(out, src[i:j])
			i = j
		default:
			op := string(ch)
			if i+1 < len(src) {
				two := src[i : i+2]
				switch two {
				case "==", "!=", "<=", ">=", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "&&", "||":
					op = two
				}
			}
			out = append(out, op)
			i += len(op)
		}
	}
	return out
}

func (p *bcParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *bcParser) next() string {
	t := p.peek()
	p.i++
	return t
}

var errBCSyntax = errors.New("syntax error")

// run executes every statement, printing the value of each bare
// expression.
func (p *bcParser) run(w io.Writer) error {
	for p.i < len(p.toks) {
		switch p.peek() {
		case "\n", ";":
			p.i++
			continue
		case "quit", "halt":
			return io.EOF
		}
		start := p.i
		v, printed, err := p.statement()
		if err != nil {
			// skip to the end of the statement, as bc goes on after an error
			for p.i < len(p.toks) && p.peek() != "\n" && p.peek() != ";" {
				p.i++
			}
			if p.i == start {
				p.i++
			}
			return err
		}
		if printed {
			fmt.Fprintln(w, p.format(v))
		}
	}
	return nil
}

func (p *bcParser) statement() (bcNum, bool, error) {
	if p.i+1 < len(p.toks) {
		name, op := p.toks[p.i], p.toks[p.i+1]
		if isBCName(name) && (op == "=" || len(op) == 2 && op[1] == '=' && strings.IndexByte("+-*/%^", op[0]) >= 0) {
			p.i += 2
			v, err := p.expr(0)
			if err != nil {
				return bcNum{}, false, err
			}
			if op != "=" {
				if v, err = p.binary(op[:1], p.get(name), v); err != nil {
					return bcNum{}, false, err
				}
			}
			return bcNum{}, false, p.set(name, v)
		}
	}
	v, err := p.expr(0)
	return v, err == nil, err
}

func isBCName(s string) bool {
	return s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] == '_') && s != "sqrt" && s != "length" && s != "quit"
}

func (p *bcParser) get(name string) bcNum {
	switch name {
	case "scale":
		return bcNum{big.NewInt(int64(p.scale)), 0}
	case "ibase":
		return bcNum{big.NewInt(int64(p.ibase)), 0}
	case "obase":
		return bcNum{big.NewInt(int64(p.obase)), 0}
	}
	if v, ok := p.vars[name]; ok {
		return v
	}
	return bcNum{new(big.Int), 0}
}

func (p *bcParser) set(name string, v bcNum) error {
	n := int(v.rescale(0).n.Int64())
	switch name {
	case "scale":
		if n < 0 || n > 1000 {
			return errors.New("scale out of range")
		}
		p.scale = n
	case "ibase":
		if n < 2 || n > 16 {
			return errors.New("ibase out of range")
		}
		p.ibase = n
	case "obase":
		if n < 2 || n > 16 {
			return errors.New("obase out of range")
		}
		p.obase = n
	default:
		p.vars[name] = v
	}
	return nil
}

// binary precedence, lowest first.
var bcLevels = [][]string{{"||"}, {"&&"}, {"==", "!=", "<", "<=", ">", ">="}, {"+", "-"}, {"*", "/", "%"}}

func (p *bcParser) expr(level int) (bcNum, error) {
	if level == len(bcLevels) {
		return p.power()
	}
	l, err := p.expr(level + 1)
	if err != nil {
		return l, err
	}
	for containsStr(bcLevels[level], p.peek()) {
		op := p.next()
		r, err := p.expr(level + 1)
		if err != nil {
			return r, err
		}
		if l, err = p.binary(op, l, r); err != nil {
			return l, err
		}
	}
	return l, nil
}

// power is right-associative and binds tighter than * / %.
func (p *bcParser) power() (bcNum, error) {
	base, err := p.unary()
	if err != nil || p.peek() != "^" {
		return base, err
	}
	p.i++
	exp, err := p.power()
	if err != nil {
		return exp, err
	}
	return p.binary("^", base, exp)
}

func (p *bcParser) unary() (bcNum, error) {
	switch t := p.peek(); t {
	case "-": // binds tighter than ^ in bc: -2^2 is 4
		p.i++
		v, err := p.unary()
		if err != nil {
			return v, err
		}
		return bcNum{new(big.Int).Neg(v.n), v.scale}, nil
	case "!":
		p.i++
		v, err := p.unary()
		if err != nil {
			return v, err
		}
		return bcBool(v.isZero()), nil
	case "++", "--":
		p.i++
		name := p.next()
		if !isBCName(name) && name != "scale" {
			return bcNum{}, errBCSyntax
		}
		one := bcNum{big.NewInt(1), 0}
		op := map[string]string{"++": "+", "--": "-"}[t]
		v, err := p.binary(op, p.get(name), one)
		if err == nil {
			err = p.set(name, v)
		}
		return v, err
	}
	return p.primary()
}

func bcBool(b bool) bcNum {
	if b {
		return bcNum{big.NewInt(1), 0}
	}
	return bcNum{new(big.Int), 0}
}

func (p *bcParser) primary() (bcNum, error) {
	t := p.next()
	switch {
	case t == "(":
		v, err := p.expr(0)
		if err != nil {
			return v, err
		}
		if p.next() != ")" {
			return v, errBCSyntax
		}
		return v, nil
	case t == "":
		return bcNum{}, errBCSyntax
	case t[0] >= '0' && t[0] <= '9' || t[0] == '.' || t[0] >= 'A' && t[0] <= 'F':
		return p.number(t)
	case p.peek() == "(":
		return p.call(t)
	case isBCName(t) || t == "scale" || t == "ibase" || t == "obase":
		v := p.get(t)
		if op := p.peek(); op == "++" || op == "--" {
			p.i++
			nv, err := p.binary(op[:1], v, bcNum{big.NewInt(1), 0})
			if err == nil {
				err = p.set(t, nv)
			}
			return v, err
		}
		return v, nil
	}
	return bcNum{}, errBCSyntax
}

// number reads a literal in ibase.
func (p *bcParser) number(t string) (bcNum, error) {
	intPart, frac, _ := strings.Cut(t, ".")
	base := big.NewInt(int64(p.ibase))
	n := new(big.Int)
	for _, ch := range intPart + frac {
		d := int64(ch - '0')
		if ch >= 'A' {
			d = int64(ch-'A') + 10
		}
		n.Mul(n, base).Add(n, big.NewInt(d))
	}
	if p.ibase == 10 {
		return bcNum{n, len(frac)}, nil
	}
	r := new(big.Rat).SetFrac(n, new(big.Int).Exp(base, big.NewInt(int64(len(frac))), nil))
	return fromRat(r, len(frac)), nil
}

func (p *bcParser) call(name string) (bcNum, error) {
	p.i++ // (
	var args []bcNum
	for p.peek() != ")" {
		v, err := p.expr(0)
		if err != nil {
			return v, err
		}
		args = append(args, v)
		if p.peek() == "," {
			p.i++
		}
		if p.peek() == "" {
			return bcNum{}, errBCSyntax
		}
	}
	p.i++
	if len(args) != 1 {
		return bcNum{}, fmt.Errorf("%s takes one argument", name)
	}
	x := args[0]
	switch name {
	case "sqrt":
		if x.n.Sign() < 0 {
			return x, errors.New("Square root of a negative number")
		}
		scale := max(p.scale, x.scale)
		n := x.rescale(2 * scale).n
		return bcNum{new(big.Int).Sqrt(n), scale}, nil
	case "length":
		d := strings.TrimLeft(new(big.Int).Abs(x.n).String(), "0")
		return bcNum{big.NewInt(int64(max(len(d), x.scale, 1))), 0}, nil
	case "scale":
		return bcNum{big.NewInt(int64(x.scale)), 0}, nil
	}
	if !p.math || strings.IndexByte("scale", name[0]) < 0 || len(name) != 1 {
		return bcNum{}, fmt.Errorf("function %s not defined", name)
	}
	return bcLibrary(name[0], x, p.scale)
}

func (p *bcParser) binary(op string, a, b bcNum) (bcNum, error) {
	switch op {
	case "+", "-":
		s := max(a.scale, b.scale)
		x, y := a.rescale(s).n, b.rescale(s).n
		if op == "+" {
			return bcNum{new(big.Int).Add(x, y), s}, nil
		}
		return bcNum{new(big.Int).Sub(x, y), s}, nil
	case "*":
		s := min(a.scale+b.scale, max(p.scale, a.scale, b.scale))
		return bcNum{new(big.Int).Mul(a.n, b.n), a.scale + b.scale}.rescale(s), nil
	case "/":
		if b.isZero() {
			return a, errors.New("Divide by zero")
		}
		return fromRat(new(big.Rat).Quo(a.rat(), b.rat()), p.scale), nil
	case "%":
		if b.isZero() {
			return a, errors.New("Modulo by zero")
		}
		q := fromRat(new(big.Rat).Quo(a.rat(), b.rat()), p.scale)
		s := max(p.scale+b.scale, a.scale)
		prod := new(big.Rat).Mul(q.rat(), b.rat())
		return fromRat(new(big.Rat).Sub(a.rat(), prod), s), nil
	case "^":
		e := b.rescale(0).n.Int64()
		if e < 0 {
			r := new(big.Rat).SetInt(big.NewInt(1))
			base := a.rat()
			for range -e {
				r.Mul(r, base)
			}
			return fromRat(new(big.Rat).Inv(r), p.scale), nil
		}
		if e > 100000 {
			return a, errors.New("exponent too large")
		}
		s := min(a.scale*int(e), max(p.scale, a.scale))
		return bcNum{new(big.Int).Exp(a.n, big.NewInt(e), nil), a.scale * int(e)}.rescale(s), nil
	}
	c := a.rat().Cmp(b.rat())
	r := map[string]bool{"==": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0,
		"&&": !a.isZero() && !b.isZero(), "||": !a.isZero() || !b.isZero()}[op]
	return bcBool(r), nil
}

// format prints v in obase.
func (p *bcParser) format(v bcNum) string {
	if p.obase == 10 {
		return v.String()
	}
	i := v.rescale(0).n
	s := strings.ToUpper(i.Text(p.obase))
	return s
}

func bcCmd(c *cmd, args []string) int {
	o, err := flagSpec{short: "lqsw", permute: true, long: map[string]string{"mathlib": "l", "quiet": "q"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	src, st := c.readText(o.args)
	if len(o.args) > 0 {
		stdin, _ := io.ReadAll(c.stdin)
		src += "\n" + string(stdin)
	}
	p := &bcParser{vars: map[string]bcNum{}, ibase: 10, obase: 10, math: o.has("l")}
	if p.math {
		p.scale = 20
	}
	p.toks = bcTokens(src)
	w := c.bufOut()
	defer w.Flush()
	status := st
	for p.i < len(p.toks) {
		err := p.run(w)
		if err == io.EOF {
			break
		}
		if err != nil {
			w.Flush()
			if err == errBCSyntax {
				fmt.Fprintf(c.stderr, "(standard_in) 1: %v\n", err)
			} else {
				fmt.Fprintf(c.stderr, "Runtime error: %v\n", err)
			}
		}
	}
	return status
}
