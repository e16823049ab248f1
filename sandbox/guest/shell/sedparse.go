package shell

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// sedAddr is one address: a line number, first~step, "$", a regex, or
// (as the end of a range) +N or ~N.
type sedAddr struct {
	line       int
	step       int // first~step when > 0
	last       bool
	re         *regexp.Regexp
	emptyRe    bool // "//": the last regex used
	plus, mult int  // addr1,+N and addr1,~N
}

// sedCmd is one parsed command with its optional address range.
type sedCmd struct {
	a1, a2  *sedAddr
	negate  bool
	name    byte // { } = a b c d D g G h H i l n N p P q Q r s t T w W x y z F :
	re      *regexp.Regexp
	emptyRe bool
	repl    string
	lit     string // s: the text re matches when it is a plain literal
	global  bool
	nth     int
	print   bool
	text    string // a/i/c text, label, file name
	exit    int    // q/Q status
	wfile   string // s///w
	from    []rune // y
	to      []rune
	jump    int // { : index of the matching }; b/t/T: target (-1 = end)
	inRange bool
	rangeTo int // the last line of a +N range
}

// sedProg is a parsed script.
type sedProg struct {
	cmds []*sedCmd
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
func parseSed(script string, ere bool) (*sedProg, error) {
	p := &sedParser{s: script, ere: ere}
	prog := &sedProg{}
	var open []int
	labels := map[string]int{}
	for {
		p.skip(" \t\n;")
		if p.i >= len(p.s) {
			break
		}
		if p.peek() == '#' {
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
			continue
		}
		c, err := p.command()
		if err != nil {
			return nil, err
		}
		switch c.name {
		case '{':
			open = append(open, len(prog.cmds))
		case '}':
			if len(open) == 0 {
				return nil, fmt.Errorf("unexpected `}'")
			}
			prog.cmds[open[len(open)-1]].jump = len(prog.cmds)
			open = open[:len(open)-1]
		case ':':
			if c.text == "" {
				return nil, fmt.Errorf("\":\" lacks a label")
			}
			labels[c.text] = len(prog.cmds)
		}
		prog.cmds = append(prog.cmds, c)
	}
	if len(open) > 0 {
		return nil, fmt.Errorf("unmatched `{'")
	}
	for _, c := range prog.cmds {
		if c.name == 'b' || c.name == 't' || c.name == 'T' {
			c.jump = -1
			if c.text != "" {
				at, ok := labels[c.text]
				if !ok {
					return nil, fmt.Errorf("can't find label for jump to `%s'", c.text)
				}
				c.jump = at
			}
		}
	}
	return prog, nil
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

// word reads the rest of a label or file-name argument: to the end of the
// line, or for labels also to a ';'.
func (p *sedParser) word(stopAtSemicolon bool) string {
	p.skip(" \t")
	start := p.i
	for p.i < len(p.s) && p.s[p.i] != '\n' && !(stopAtSemicolon && (p.s[p.i] == ';' || p.s[p.i] == '}')) {
		p.i++
	}
	return strings.TrimRight(p.s[start:p.i], " \t")
}

func (p *sedParser) command() (*sedCmd, error) {
	c := &sedCmd{}
	var err error
	if c.a1, err = p.address(false); err != nil {
		return nil, err
	}
	if c.a1 != nil && p.peek() == ',' {
		p.i++
		p.skip(" \t")
		if c.a2, err = p.address(true); err != nil {
			return nil, err
		}
		if c.a2 == nil {
			return nil, fmt.Errorf("unexpected `,'")
		}
	}
	p.skip(" \t")
	for p.peek() == '!' {
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
	case '{':
		return c, nil
	case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'l', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
	case '}':
		if c.a1 != nil {
			return nil, fmt.Errorf("} doesn't want any addresses")
		}
	case 'q', 'Q':
		p.skip(" \t")
		start := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		c.exit, _ = strconv.Atoi(p.s[start:p.i])
	case ':':
		if c.a1 != nil {
			return nil, fmt.Errorf(": doesn't want any addresses")
		}
		c.text = p.word(true)
		return c, nil
	case 'b', 't', 'T':
		c.text = p.word(true)
	case 'r', 'R', 'w', 'W':
		c.text = p.word(false)
		if c.text == "" {
			return nil, fmt.Errorf("missing filename in r/R/w/W commands")
		}
		return c, nil
	case 's':
		if err := p.substitute(c); err != nil {
			return nil, err
		}
	case 'y':
		if err := p.transliterate(c); err != nil {
			return nil, err
		}
	case 'a', 'i', 'c':
		c.text = p.text()
		return c, nil
	default:
		return nil, fmt.Errorf("unknown command: `%c'", c.name)
	}
	p.skip(" \t")
	if p.i < len(p.s) && p.s[p.i] != ';' && p.s[p.i] != '\n' && p.s[p.i] != '}' && p.s[p.i] != '#' {
		return nil, fmt.Errorf("extra characters after command")
	}
	return c, nil
}

// text reads the text of a, i or c: "a\" then lines (a backslash at the
// end of a line continues it), or GNU's one-line "a text".
func (p *sedParser) text() string {
	p.skip(" \t")
	if p.peek() == '\\' {
		p.i++
		if p.peek() == '\n' {
			p.i++
		}
	}
	var b strings.Builder
	for p.i < len(p.s) {
		ch := p.s[p.i]
		if ch == '\\' && p.i+1 < len(p.s) {
			p.i++
			switch next := p.s[p.i]; next {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(next)
			}
			p.i++
			continue
		}
		if ch == '\n' {
			break
		}
		b.WriteByte(ch)
		p.i++
	}
	return b.String()
}

func (p *sedParser) number() int {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	n, _ := strconv.Atoi(p.s[start:p.i])
	return n
}

func (p *sedParser) address(second bool) (*sedAddr, error) {
	switch ch := p.peek(); {
	case ch == '$':
		p.i++
		return &sedAddr{last: true}, nil
	case second && (ch == '+' || ch == '~'):
		p.i++
		n := p.number()
		if ch == '+' {
			return &sedAddr{plus: n}, nil
		}
		return &sedAddr{mult: n}, nil
	case ch >= '0' && ch <= '9':
		a := &sedAddr{line: p.number()}
		if p.peek() == '~' {
			p.i++
			a.step = p.number()
		}
		return a, nil
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
		for p.peek() == 'I' || p.peek() == 'M' {
			flags += map[byte]string{'I': "i", 'M': "m"}[p.peek()]
			p.i++
		}
		if expr == "" {
			return &sedAddr{emptyRe: true}, nil
		}
		re, err := p.compile(expr, flags)
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
	inClass := false
	for p.i < len(p.s) {
		ch := p.s[p.i]
		if ch == '\\' && p.i+1 < len(p.s) && !inClass {
			switch next := p.s[p.i+1]; {
			case next == delim:
				b.WriteByte(delim)
			case next == 'n':
				b.WriteString(`\n`)
			default:
				b.WriteByte('\\')
				b.WriteByte(next)
			}
			p.i += 2
			continue
		}
		if ch == '\n' && delim != '\n' {
			break
		}
		p.i++
		switch {
		case ch == '[' && !inClass:
			inClass = true
			b.WriteByte(ch)
			if p.peek() == '^' {
				b.WriteByte('^')
				p.i++
			}
			if p.peek() == ']' {
				b.WriteByte(']')
				p.i++
			}
			continue
		case ch == ']' && inClass:
			inClass = false
		case ch == delim && !inClass:
			return b.String(), nil
		}
		b.WriteByte(ch)
	}
	return "", fmt.Errorf("unterminated address regex or `s' command")
}

func (p *sedParser) compile(expr, flags string) (*regexp.Regexp, error) {
	if !p.ere {
		expr = translateBRE(expr)
	}
	if flags != "" {
		expr = "(?" + flags + ")" + expr
	}
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
	if c.repl, err = p.replacement(delim); err != nil {
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
			flags += "i"
		case ch == 'm' || ch == 'M':
			flags += "m"
		case ch >= '0' && ch <= '9':
			c.nth = p.number()
			continue
		case ch == 'w':
			p.i++
			c.wfile = p.word(false)
			if c.wfile == "" {
				return fmt.Errorf("missing filename in r/R/w/W commands")
			}
			goto done
		case ch == 'e':
			return fmt.Errorf("the e flag runs commands, which the sandbox's sed does not do")
		default:
			goto done
		}
		p.i++
	}
done:
	if expr == "" {
		c.emptyRe = true
		return nil
	}
	c.re, err = p.compile(expr, flags)
	if t := expr; err == nil && flags == "" {
		if !p.ere {
			t = translateBRE(t)
		}
		if regexp.QuoteMeta(t) == t {
			c.lit = t
		}
	}
	return err
}

// replacement reads the replacement of s up to the delimiter, keeping
// escapes for expandRepl (a backslash-newline is a newline).
func (p *sedParser) replacement(delim byte) (string, error) {
	var b strings.Builder
	for p.i < len(p.s) {
		ch := p.s[p.i]
		if ch == '\\' && p.i+1 < len(p.s) {
			next := p.s[p.i+1]
			switch {
			case next == delim && delim != '&':
				b.WriteByte(delim)
			case next == '\n':
				b.WriteByte('\n')
			default:
				b.WriteByte('\\')
				b.WriteByte(next)
			}
			p.i += 2
			continue
		}
		p.i++
		if ch == delim {
			return b.String(), nil
		}
		if ch == '\n' {
			break
		}
		b.WriteByte(ch)
	}
	return "", fmt.Errorf("unterminated `s' command")
}

// transliterate parses y/src/dst/.
func (p *sedParser) transliterate(c *sedCmd) error {
	if p.i >= len(p.s) {
		return fmt.Errorf("unterminated `y' command")
	}
	delim := p.s[p.i]
	p.i++
	parts := [2][]rune{}
	for k := range parts {
		var out []rune
		for {
			if p.i >= len(p.s) {
				return fmt.Errorf("unterminated `y' command")
			}
			ch := p.s[p.i]
			if ch == '\\' && p.i+1 < len(p.s) {
				next := p.s[p.i+1]
				switch next {
				case 'n':
					out = append(out, '\n')
				case 't':
					out = append(out, '\t')
				default:
					out = append(out, rune(next))
				}
				p.i += 2
				continue
			}
			if ch == delim {
				p.i++
				break
			}
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			p.i += size
			out = append(out, r)
		}
		parts[k] = out
	}
	if len(parts[0]) != len(parts[1]) {
		return fmt.Errorf("strings for `y' command are different lengths")
	}
	c.from, c.to = parts[0], parts[1]
	return nil
}
