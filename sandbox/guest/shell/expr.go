package shell

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"unicode/utf8"
)

// exprParser evaluates expr's arguments by precedence, lowest first:
// | & (= != < <= > >=) (+ -) (* / %) : and the prefix operators match,
// substr, index, length and +TOKEN.
type exprParser struct {
	args []string
	i    int
}

var errExprSyntax = errors.New("syntax error")

func (p *exprParser) peek() (string, bool) {
	if p.i < len(p.args) {
		return p.args[p.i], true
	}
	return "", false
}

func exprNull(v string) bool {
	if v == "" {
		return true
	}
	n, ok := new(big.Int).SetString(v, 10)
	return ok && n.Sign() == 0
}

func exprInt(v string) (*big.Int, bool) {
	if v == "" || strings.HasPrefix(v, "+") {
		return nil, false
	}
	return new(big.Int).SetString(v, 10)
}

func (p *exprParser) binary(ops []string, next func() (string, error), apply func(op, a, b string) (string, error)) (string, error) {
	l, err := next()
	if err != nil {
		return "", err
	}
	for {
		op, ok := p.peek()
		if !ok || !containsStr(ops, op) {
			return l, nil
		}
		p.i++
		r, err := next()
		if err != nil {
			return "", err
		}
		if l, err = apply(op, l, r); err != nil {
			return "", err
		}
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *exprParser) or() (string, error) {
	return p.binary([]string{"|"}, p.and, func(_, a, b string) (string, error) {
		if !exprNull(a) {
			return a, nil
		}
		if !exprNull(b) {
			return b, nil
		}
		return "0", nil
	})
}

func (p *exprParser) and() (string, error) {
	return p.binary([]string{"&"}, p.compare, func(_, a, b string) (string, error) {
		if exprNull(a) || exprNull(b) {
			return "0", nil
		}
		return a, nil
	})
}

func (p *exprParser) compare() (string, error) {
	return p.binary([]string{"=", "==", "!=", "<", "<=", ">", ">="}, p.sum, func(op, a, b string) (string, error) {
		c := strings.Compare(a, b)
		if x, ok := exprInt(a); ok {
			if y, ok := exprInt(b); ok {
				c = x.Cmp(y)
			}
		}
		r := map[string]bool{"=": c == 0, "==": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]
		if r {
			return "1", nil
		}
		return "0", nil
	})
}

func (p *exprParser) arith(op, a, b string) (string, error) {
	x, ok1 := exprInt(a)
	y, ok2 := exprInt(b)
	if !ok1 || !ok2 {
		return "", errors.New("non-integer argument")
	}
	z := new(big.Int)
	switch op {
	case "+":
		z.Add(x, y)
	case "-":
		z.Sub(x, y)
	case "*":
		z.Mul(x, y)
	case "/", "%":
		if y.Sign() == 0 {
			return "", errors.New("division by zero")
		}
		if op == "/" {
			z.Quo(x, y)
		} else {
			z.Rem(x, y)
		}
	}
	return z.String(), nil
}

func (p *exprParser) sum() (string, error) {
	return p.binary([]string{"+", "-"}, p.product, p.arith)
}

func (p *exprParser) product() (string, error) {
	return p.binary([]string{"*", "/", "%"}, p.match, p.arith)
}

func (p *exprParser) match() (string, error) {
	return p.binary([]string{":"}, p.primary, func(_, a, b string) (string, error) { return exprMatch(a, b) })
}

// exprMatch anchors the basic regular expression re at the start of s and
// returns the first group's text, or the length of the match.
func exprMatch(s, re string) (string, error) {
	translated := translateBRE(strings.TrimPrefix(re, "^"))
	rx, err := regexp.Compile("^(?:" + translated + ")")
	if err != nil {
		return "", fmt.Errorf("Invalid regular expression")
	}
	m := rx.FindStringSubmatch(s)
	if rx.NumSubexp() > 0 {
		if m == nil {
			return "", nil
		}
		return m[1], nil
	}
	if m == nil {
		return "0", nil
	}
	return fmt.Sprint(utf8.RuneCountInString(m[0])), nil
}

func (p *exprParser) operand() (string, error) {
	v, ok := p.peek()
	if !ok {
		return "", errExprSyntax
	}
	p.i++
	return v, nil
}

func (p *exprParser) primary() (string, error) {
	v, ok := p.peek()
	if !ok {
		if p.i > 0 {
			return "", fmt.Errorf("syntax error: missing argument after '%s'", p.args[p.i-1])
		}
		return "", errExprSyntax
	}
	p.i++
	switch v {
	case "(":
		r, err := p.or()
		if err != nil {
			return "", err
		}
		if c, _ := p.peek(); c != ")" {
			return "", errors.New("syntax error: expecting ')'")
		}
		p.i++
		return r, nil
	case "+":
		return p.operand()
	case "length":
		s, err := p.primary()
		return fmt.Sprint(utf8.RuneCountInString(s)), err
	case "match":
		s, err := p.primary()
		if err != nil {
			return "", err
		}
		re, err := p.primary()
		if err != nil {
			return "", err
		}
		return exprMatch(s, re)
	case "index":
		s, err := p.primary()
		if err != nil {
			return "", err
		}
		chars, err := p.primary()
		if err != nil {
			return "", err
		}
		for i, r := range []rune(s) {
			if strings.ContainsRune(chars, r) {
				return fmt.Sprint(i + 1), nil
			}
		}
		return "0", nil
	case "substr":
		s, err := p.primary()
		if err != nil {
			return "", err
		}
		pos, err1 := p.primary()
		n, err2 := p.primary()
		if err1 != nil || err2 != nil {
			return "", errExprSyntax
		}
		var start, count int
		if _, err := fmt.Sscan(pos, &start); err != nil {
			return "", nil
		}
		if _, err := fmt.Sscan(n, &count); err != nil {
			return "", nil
		}
		rs := []rune(s)
		if start < 1 || start > len(rs) || count < 1 {
			return "", nil
		}
		return string(rs[start-1 : min(start-1+count, len(rs))]), nil
	}
	return v, nil
}

func exprCmd(c *cmd, args []string) int {
	if len(args) == 0 {
		c.fail("missing operand")
		return 2
	}
	p := &exprParser{args: args}
	v, err := p.or()
	if err == nil && p.i < len(args) {
		err = fmt.Errorf("syntax error: unexpected argument '%s'", args[p.i])
	}
	if err != nil {
		c.fail("%v", err)
		return 2
	}
	fmt.Fprintln(c.stdout, v)
	if exprNull(v) {
		return 1
	}
	return 0
}
