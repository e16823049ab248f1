// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). It is the printf
// builtin, written after bash's: upstream's knows no precision, no %X %e
// %f %g %q %(fmt)T or %*d, no -v, reads 'a as 0 and stops at the first
// conversion it does not know, and it cannot reuse the format for extra
// arguments when an argument is missing.

package interp

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	// The guest's date formats with the same package. This module's
	// packages are in the guest build's module graph (it is the main
	// module), and this one imports nothing of mvdan.cc/sh, so there is
	// no cycle; it is not under internal/, which would refuse us.
	"github.com/ptc-dev/ptc/sandbox/guest/strftime"
)

// maxPrintfWidth caps a field width or precision, so printf '%2000000000s'
// cannot take the guest's memory.
const maxPrintfWidth = 1 << 20

func (r *Runner) ptcPrintf(args []string) exitStatus {
	var exit exitStatus
	target := ""
	for len(args) > 0 {
		switch {
		case args[0] == "--":
			args = args[1:]
		case args[0] == "-v":
			if len(args) < 2 {
				r.errf("printf: -v: option requires an argument\n")
				exit.code = 2
				return exit
			}
			target, args = args[1], args[2:]
			continue
		case strings.HasPrefix(args[0], "-v"):
			target, args = args[0][2:], args[1:]
			continue
		case len(args[0]) > 1 && args[0][0] == '-' && args[0] != "-":
			r.errf("printf: %s: invalid option\nprintf: usage: printf [-v var] format [arguments]\n", args[0])
			exit.code = 2
			return exit
		}
		break
	}
	if len(args) == 0 {
		r.errf("printf: usage: printf [-v var] format [arguments]\n")
		exit.code = 2
		return exit
	}
	if target != "" && !validAssignTarget(target) {
		r.errf("printf: `%s': not a valid identifier\n", target)
		exit.code = 2
		return exit
	}
	p := &printfState{r: r, args: args[1:]}
	format := args[0]
	for {
		before := len(p.args)
		if !p.run(format) {
			break
		}
		if len(p.args) == 0 || len(p.args) == before {
			break
		}
	}
	if target != "" {
		if err := r.assignTarget(target, p.out.String()); err != nil {
			r.errf("printf: %v\n", err)
			exit.code = 1
			return exit
		}
	} else {
		r.out(p.out.String())
	}
	if p.failed {
		exit.code = 1
	}
	return exit
}

// printfState is one printf call in progress.
type printfState struct {
	r      *Runner
	out    strings.Builder
	args   []string
	failed bool // an argument was not a valid number: the status is 1
}

func (p *printfState) next() (string, bool) {
	if len(p.args) == 0 {
		return "", false
	}
	a := p.args[0]
	p.args = p.args[1:]
	return a, true
}

// run formats once. It returns false when output must stop: a \c in a
// %b argument, or an invalid conversion.
func (p *printfState) run(format string) bool {
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '\\':
			n, stop := writeEscape(&p.out, format[i+1:], escFormat)
			if stop {
				return false
			}
			i += n
		case c == '%' && i+1 < len(format) && format[i+1] == '%':
			p.out.WriteByte('%')
			i++
		case c == '%':
			n, ok := p.conversion(format[i+1:])
			if !ok {
				return false
			}
			i += n
		default:
			p.out.WriteByte(c)
		}
	}
	return true
}

// spec is a parsed conversion: %[flags][width][.precision]verb.
type spec struct {
	flags     string
	width     int
	hasWidth  bool
	prec      int
	hasPrec   bool
	verb      byte
	strftime  string // the format of %(...)T
	leftAlign bool
}

// conversion handles the conversion whose text (after the %) starts s,
// and returns how many bytes of s it used.
func (p *printfState) conversion(s string) (int, bool) {
	var sp spec
	i := 0
	for i < len(s) && strings.IndexByte("-+ #0'", s[i]) >= 0 {
		if s[i] != '\'' {
			sp.flags += string(s[i])
		}
		i++
	}
	sp.leftAlign = strings.Contains(sp.flags, "-")
	var ok bool
	if sp.width, sp.hasWidth, i, ok = p.number(s, i); !ok {
		return i, false
	}
	if sp.width < 0 {
		sp.width, sp.leftAlign = -sp.width, true
		sp.flags += "-"
	}
	if i < len(s) && s[i] == '.' {
		i++
		sp.hasPrec = true
		if sp.prec, _, i, ok = p.number(s, i); !ok {
			return i, false
		}
		if sp.prec < 0 {
			sp.hasPrec = false
		}
	}
	sp.width, sp.prec = min(sp.width, maxPrintfWidth), min(sp.prec, maxPrintfWidth)
	for i < len(s) && strings.IndexByte("hlLqjzt", s[i]) >= 0 && i+1 < len(s) && strings.IndexByte("diouxXeEfFgGaAcs", s[i+1]) >= 0 {
		i++ // length modifiers mean nothing here
	}
	if i < len(s) && s[i] == '(' {
		end := strings.Index(s[i:], ")T")
		if end < 0 {
			p.r.errf("printf: `(': invalid format character\n")
			p.failed = true
			return len(s), false
		}
		sp.strftime, sp.verb = s[i+1:i+end], 'T'
		i += end + 2
	} else if i < len(s) {
		sp.verb = s[i]
		i++
	} else {
		p.r.errf("printf: `%%': missing format character\n")
		p.failed = true
		return i, false
	}
	return i, p.format(sp)
}

// number reads a width or precision at s[i:]: digits, or * for the next
// argument.
func (p *printfState) number(s string, i int) (n int, present bool, next int, ok bool) {
	if i < len(s) && s[i] == '*' {
		arg, _ := p.next()
		v, valid := p.integer(arg)
		if !valid {
			return 0, true, i + 1, true
		}
		return int(max(min(v, maxPrintfWidth), -maxPrintfWidth)), true, i + 1, true
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i {
		return 0, false, i, true
	}
	v, err := strconv.Atoi(s[i:j])
	if err != nil || v > maxPrintfWidth {
		v = maxPrintfWidth
	}
	return v, true, j, true
}

// pad justifies s in the field width.
func (sp spec) pad(s string) string {
	if !sp.hasWidth || len(s) >= sp.width {
		return s
	}
	fill := strings.Repeat(" ", sp.width-len(s))
	if sp.leftAlign {
		return s + fill
	}
	return fill + s
}

func (p *printfState) format(sp spec) bool {
	switch sp.verb {
	case 's', 'q', 'Q':
		arg, _ := p.next()
		if sp.verb != 's' {
			arg = shellQuote(arg)
		}
		if sp.hasPrec && sp.prec < len(arg) {
			arg = arg[:sp.prec]
		}
		p.out.WriteString(sp.pad(arg))
	case 'b':
		arg, _ := p.next()
		var sb strings.Builder
		stop := writeEchoEscapes(&sb, arg, escB)
		s := sb.String()
		if sp.hasPrec && sp.prec < len(s) {
			s = s[:sp.prec]
		}
		p.out.WriteString(sp.pad(s))
		if stop {
			return false
		}
	case 'c':
		arg, _ := p.next()
		if arg == "" {
			arg = "\x00" // C's %c of the empty string's terminator
		}
		p.out.WriteString(sp.pad(arg[:1]))
	case 'd', 'i':
		arg, _ := p.next()
		n, _ := p.integer(arg)
		p.out.WriteString(sp.goFormat('d', n))
	case 'u', 'o', 'x', 'X':
		arg, _ := p.next()
		n, _ := p.unsigned(arg)
		verb := sp.verb
		if verb == 'u' {
			verb = 'd'
		}
		if n == 0 {
			sp.flags = strings.ReplaceAll(sp.flags, "#", "") // C prints a bare 0
		}
		p.out.WriteString(sp.goFormat(verb, n))
	case 'e', 'E', 'f', 'F', 'g', 'G', 'a', 'A':
		arg, _ := p.next()
		p.out.WriteString(sp.float(p.float(arg)))
	case 'T':
		arg, ok := p.next()
		p.out.WriteString(sp.pad(p.strftime(sp, arg, ok)))
	default:
		p.r.errf("printf: `%c': invalid format character\n", sp.verb)
		p.failed = true
		return false
	}
	return true
}

// goFormat formats an integer through fmt, whose flags, width and
// precision mean what C's do for integers.
func (sp spec) goFormat(verb byte, v any) string {
	f := "%" + sp.flags
	if sp.hasWidth {
		f += strconv.Itoa(sp.width)
	}
	if sp.hasPrec {
		f += "." + strconv.Itoa(sp.prec)
	}
	return fmt.Sprintf(f+string(verb), v)
}

func (sp spec) float(x float64) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		s := "inf"
		if math.IsNaN(x) {
			s = "nan"
		}
		switch {
		case x < 0 || math.Signbit(x):
			s = "-" + s
		case strings.Contains(sp.flags, "+"):
			s = "+" + s
		case strings.Contains(sp.flags, " "):
			s = " " + s
		}
		if sp.verb >= 'A' && sp.verb <= 'Z' {
			s = strings.ToUpper(s)
		}
		return sp.pad(s)
	}
	verb := sp.verb
	switch verb {
	case 'F':
		verb = 'f'
	case 'a', 'A':
		verb = map[byte]byte{'a': 'x', 'A': 'X'}[verb]
	}
	if !sp.hasPrec && verb != 'x' && verb != 'X' {
		sp.hasPrec, sp.prec = true, 6
	}
	return sp.goFormat(verb, x)
}

// integer reads a printf numeric argument as bash does: leading blanks, a
// sign, 0x or 0 prefixes, or 'c for a character's code. A malformed one
// is reported; its valid prefix is the value.
func (p *printfState) integer(arg string) (int64, bool) {
	u, neg, ok := p.parseInteger(arg, false)
	if neg {
		if u > 1<<63 {
			p.r.errf("printf: warning: %s: Numerical result out of range\n", arg)
			return math.MinInt64, ok
		}
		return -int64(u), ok
	}
	if u > math.MaxInt64 {
		p.r.errf("printf: warning: %s: Numerical result out of range\n", arg)
		return math.MaxInt64, ok
	}
	return int64(u), ok
}

func (p *printfState) unsigned(arg string) (uint64, bool) {
	u, neg, ok := p.parseInteger(arg, true)
	if neg && u != math.MaxUint64 { // an overflow stays at the maximum, as with strtoumax
		return -u, ok
	}
	return u, ok
}

func (p *printfState) parseInteger(arg string, unsigned bool) (u uint64, neg, ok bool) {
	s := strings.TrimLeft(arg, " \t\n")
	if s == "" {
		return 0, false, true
	}
	if s[0] == '\'' || s[0] == '"' {
		r, _ := utf8.DecodeRuneInString(s[1:])
		if len(s) == 1 {
			r = 0
		}
		return uint64(r), false, true
	}
	i := 0
	if s[0] == '+' || s[0] == '-' {
		neg = s[0] == '-'
		i++
	}
	base := uint64(10)
	switch {
	case strings.HasPrefix(s[i:], "0x") || strings.HasPrefix(s[i:], "0X"):
		base, i = 16, i+2
	case strings.HasPrefix(s[i:], "0"):
		base = 8
	}
	start := i
	over := false
	for ; i < len(s); i++ {
		d := uint64(36)
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = uint64(c-'A') + 10
		}
		if d >= base {
			break
		}
		if u > (math.MaxUint64-d)/base {
			over = true
		}
		u = u*base + d
	}
	if over {
		u = math.MaxUint64
		if !unsigned {
			u = 1<<63 - 1
			if neg {
				u = 1 << 63
			}
		}
		p.r.errf("printf: warning: %s: Numerical result out of range\n", arg)
	}
	if i < len(s) || i == start && base != 8 {
		p.r.errf("printf: %s: invalid number\n", arg)
		p.failed = true
		return u, neg, false
	}
	return u, neg, true
}

func (p *printfState) float(arg string) float64 {
	s := strings.TrimLeft(arg, " \t\n")
	if s == "" {
		return 0
	}
	if s[0] == '\'' || s[0] == '"' {
		r, _ := utf8.DecodeRuneInString(s[1:])
		return float64(r)
	}
	if x, err := strconv.ParseFloat(s, 64); err == nil || strings.Contains(err.Error(), "range") {
		return x
	}
	// The longest valid prefix is the value, as with strtod.
	for n := len(s) - 1; n > 0; n-- {
		if x, err := strconv.ParseFloat(s[:n], 64); err == nil {
			p.r.errf("printf: %s: invalid number\n", arg)
			p.failed = true
			return x
		}
	}
	p.r.errf("printf: %s: invalid number\n", arg)
	p.failed = true
	return 0
}

// strftime formats %(fmt)T: the argument is seconds since the epoch, -1
// (or none) the current time, -2 the time the shell started.
func (p *printfState) strftime(sp spec, arg string, given bool) string {
	secs := int64(-1)
	if given && strings.TrimSpace(arg) != "" {
		secs, _ = p.integer(arg)
	}
	var t time.Time
	switch secs {
	case -1, -2:
		t = time.Now()
	default:
		t = time.Unix(secs, 0)
	}
	if tz := p.r.writeEnv.Get("TZ"); tz.Exported && tz.IsSet() {
		if loc, err := time.LoadLocation(tz.String()); err == nil {
			t = t.In(loc)
		}
	}
	s := strftime.Format(sp.strftime, t)
	if len(s) >= 128 {
		s = "" // bash's buffer: a longer result is dropped
	}
	if sp.hasPrec && sp.prec < len(s) {
		s = s[:sp.prec]
	}
	return s
}

// escMode says whose escapes writeEscape follows.
type escMode int

const (
	escFormat escMode = iota // a printf format: \NNN octal, \" \' \? quoted
	escEcho                  // echo -e: \0NNN octal, \c stops
	escB                     // printf %b: like echo -e, and \NNN octal too
)

// writeEscape writes the escape sequence after a backslash (s is the
// text after it) and returns how many bytes of s it used. An unknown
// escape is written as is.
func writeEscape(sb *strings.Builder, s string, mode escMode) (n int, stop bool) {
	if s == "" {
		sb.WriteByte('\\')
		return 0, false
	}
	c := s[0]
	if b, ok := simpleEscapes[c]; ok {
		sb.WriteByte(b)
		return 1, false
	}
	switch {
	case c == '"' || c == '\'' || c == '?':
		if mode != escFormat {
			sb.WriteByte('\\')
		}
		sb.WriteByte(c)
		return 1, false
	case c == 'c' && mode != escFormat:
		return 1, true
	case c >= '0' && c <= '7' && (mode != escEcho || c == '0'):
		start, limit := 0, 3
		if mode != escFormat && c == '0' {
			start, limit = 1, 4
		}
		j := start
		for j < limit && j < len(s) && s[j] >= '0' && s[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint(s[start:j], 8, 16)
		sb.WriteByte(byte(v))
		return j, false
	case c == 'x' || c == 'u' || c == 'U':
		limit := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
		j := 1
		for j <= limit && j < len(s) && isHex(s[j]) {
			j++
		}
		if j == 1 {
			sb.WriteByte('\\')
			sb.WriteByte(c)
			return 1, false
		}
		v, _ := strconv.ParseUint(s[1:j], 16, 32)
		if c == 'x' {
			sb.WriteByte(byte(v))
		} else {
			sb.WriteRune(rune(v))
		}
		return j, false
	}
	sb.WriteByte('\\')
	sb.WriteByte(c)
	return 1, false
}

var simpleEscapes = map[byte]byte{
	'a': '\a', 'b': '\b', 'e': 0x1b, 'E': 0x1b, 'f': '\f', 'n': '\n',
	'r': '\r', 't': '\t', 'v': '\v', '\\': '\\',
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// writeEchoEscapes writes s with the escapes of echo -e or printf's %b
// and reports whether a \c asked to stop all output.
func writeEchoEscapes(sb *strings.Builder, s string, mode escMode) (stop bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			sb.WriteByte(s[i])
			continue
		}
		n, stop := writeEscape(sb, s[i+1:], mode)
		if stop {
			return true
		}
		i += n
	}
	return false
}

// shellQuote quotes s for reuse as shell input, as bash's printf %q does:
// ” for the empty string, $'...' when s holds a control character or
// invalid UTF-8, backslashes before special characters otherwise.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	for _, r := range s {
		if r == utf8.RuneError || r < 0x20 || r == 0x7f {
			return ansiQuote(s)
		}
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if strings.IndexByte(" !\"$&'()*,;<>?[\\]^`{|}\t", c) >= 0 || (i == 0 && (c == '#' || c == '~')) {
			sb.WriteByte('\\')
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

func ansiQuote(s string) string {
	var sb strings.Builder
	sb.WriteString("$'")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		c := s[i]
		switch {
		case c == '\'' || c == '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case c == '\n':
			sb.WriteString(`\n`)
		case c == '\t':
			sb.WriteString(`\t`)
		case c == '\r':
			sb.WriteString(`\r`)
		case c == '\a':
			sb.WriteString(`\a`)
		case c == '\b':
			sb.WriteString(`\b`)
		case c == '\f':
			sb.WriteString(`\f`)
		case c == '\v':
			sb.WriteString(`\v`)
		case c == 0x1b:
			sb.WriteString(`\E`)
		case r == utf8.RuneError && size == 1, c < 0x20, c == 0x7f:
			fmt.Fprintf(&sb, `\%03o`, c)
		default:
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	sb.WriteByte('\'')
	return sb.String()
}
