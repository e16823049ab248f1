package shell

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// sedAddr is one address: a line number, "$" or a regex.
type sedAddr struct {
	line int
	last bool
	re   *regexp.Regexp
}

// sedCmd is one parsed sed command with its optional address range.
type sedCmd struct {
	a1, a2  *sedAddr
	negate  bool
	name    byte // s p d q = a i c
	re      *regexp.Regexp
	repl    string
	global  bool
	nth     int
	print   bool
	text    string
	inRange bool
	rangeTo int // line number ending the current range when a2 is relative
}

// sedParser walks a sed script.
type sedParser struct {
	s   string
	i   int
	ere bool
}

// parseSed parses a script of commands separated by ';' or newlines. ere
// selects extended regular expressions (-E/-r); otherwise BRE is mapped to
// RE2.
func parseSed(script string, ere bool) ([]*sedCmd, error) {
	p := &sedParser{s: script, ere: ere}
	var cmds []*sedCmd
	for {
		p.skip(" \t\n;")
		if p.i >= len(p.s) {
			return cmds, nil
		}
		c, err := p.command()
		if err != nil {
			return nil, err
		}
		cmds = append(cmds, c)
	}
}

func (p *sedParser) skip(chars string) {
	for p.i < len(p.s) && strings.IndexByte(chars, p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *sedParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *sedParser) command() (*sedCmd, error) {
	c := &sedCmd{}
	var err error
	if c.a1, err = p.address(); err != nil {
		return nil, err
	}
	if c.a1 != nil && p.peek() == ',' {
		p.i++
		if c.a2, err = p.address(); err != nil {
			return nil, err
		}
		if c.a2 == nil {
			return nil, fmt.Errorf("unexpected ','")
		}
	}
	p.skip(" \t")
	if p.peek() == '!' {
		c.negate = true
		p.i++
		p.skip(" \t")
	}
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("missing command")
	}
	c.name = p.s[p.i]
	p.i++
	switch c.name {
	case 'p', 'd', 'q', '=':
	case 's':
		if err := p.substitute(c); err != nil {
			return nil, err
		}
	case 'a', 'i', 'c':
		p.skip(" \t")
		if p.peek() == '\\' {
			p.i++
			p.skip(" \t")
			if p.peek() == '\n' {
				p.i++
			}
		}
		end := strings.IndexByte(p.s[p.i:], '\n')
		if end < 0 {
			end = len(p.s) - p.i
		}
		c.text = p.s[p.i : p.i+end]
		p.i += end
	default:
		return nil, fmt.Errorf("unknown command: '%c'", c.name)
	}
	p.skip(" \t")
	if p.i < len(p.s) && p.s[p.i] != ';' && p.s[p.i] != '\n' && p.s[p.i] != '}' {
		return nil, fmt.Errorf("extra characters after command")
	}
	return c, nil
}

func (p *sedParser) address() (*sedAddr, error) {
	switch ch := p.peek(); {
	case ch == '$':
		p.i++
		return &sedAddr{last: true}, nil
	case ch >= '0' && ch <= '9':
		start := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		n, _ := strconv.Atoi(p.s[start:p.i])
		return &sedAddr{line: n}, nil
	case ch == '/' || ch == '\\':
		if ch == '\\' {
			p.i++
		}
		delim := p.peek()
		p.i++
		expr, err := p.until(delim)
		if err != nil {
			return nil, err
		}
		flags := ""
		if p.peek() == 'I' {
			p.i++
			flags = "(?i)"
		}
		re, err := p.compile(flags + p.regex(expr))
		if err != nil {
			return nil, err
		}
		return &sedAddr{re: re}, nil
	}
	return nil, nil
}

// until reads up to an unescaped delim, turning "\delim" into delim.
func (p *sedParser) until(delim byte) (string, error) {
	var b strings.Builder
	for p.i < len(p.s) {
		ch := p.s[p.i]
		if ch == '\\' && p.i+1 < len(p.s) {
			if p.s[p.i+1] == delim {
				b.WriteByte(delim)
			} else if p.s[p.i+1] == 'n' {
				b.WriteByte('\n')
			} else {
				b.WriteByte('\\')
				b.WriteByte(p.s[p.i+1])
			}
			p.i += 2
			continue
		}
		p.i++
		if ch == delim {
			return b.String(), nil
		}
		b.WriteByte(ch)
	}
	return "", fmt.Errorf("unterminated address regex or s command")
}

func (p *sedParser) regex(expr string) string {
	if p.ere {
		return expr
	}
	return translateBRE(expr)
}

func (p *sedParser) compile(expr string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression: %v", err)
	}
	return re, nil
}

func (p *sedParser) substitute(c *sedCmd) error {
	if p.i >= len(p.s) || p.s[p.i] == '\n' || p.s[p.i] == '\\' {
		return fmt.Errorf("unterminated `s' command")
	}
	delim := p.s[p.i]
	p.i++
	expr, err := p.until(delim)
	if err != nil {
		return err
	}
	if c.repl, err = p.until(delim); err != nil {
		return err
	}
	flags := ""
	for p.i < len(p.s) {
		switch ch := p.s[p.i]; {
		case ch == 'g':
			c.global = true
		case ch == 'p':
			c.print = true
		case ch == 'i' || ch == 'I':
			flags = "(?i)"
		case ch >= '1' && ch <= '9':
			c.nth = int(ch - '0')
		default:
			goto done
		}
		p.i++
	}
done:
	c.re, err = p.compile(flags + p.regex(expr))
	return err
}
