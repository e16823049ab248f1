package shell

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// expandRepl expands & and \1…\9 in a replacement, with GNU's case
// conversions \U \L \E (until \E) and \u \l (next character).
func expandRepl(repl, line string, m []int) string {
	var b strings.Builder
	mode, once := byte(0), byte(0)
	put := func(s string) {
		for _, ch := range s {
			switch {
			case once == 'u':
				ch, once = unicode.ToUpper(ch), 0
			case once == 'l':
				ch, once = unicode.ToLower(ch), 0
			case mode == 'U':
				ch = unicode.ToUpper(ch)
			case mode == 'L':
				ch = unicode.ToLower(ch)
			}
			b.WriteRune(ch)
		}
	}
	for i := 0; i < len(repl); i++ {
		ch := repl[i]
		switch {
		case ch == '&':
			put(line[m[0]:m[1]])
		case ch == '\\' && i+1 < len(repl):
			i++
			d := repl[i]
			switch {
			case d >= '0' && d <= '9':
				g := int(d - '0')
				if 2*g+1 < len(m) && m[2*g] >= 0 {
					put(line[m[2*g]:m[2*g+1]])
				}
			case d == 'n':
				b.WriteByte('\n')
			case d == 't':
				b.WriteByte('\t')
			case d == 'r':
				b.WriteByte('\r')
			case d == 'f':
				b.WriteByte('\f')
			case d == 'v':
				b.WriteByte('\v')
			case d == 'a':
				b.WriteByte('\a')
			case d == 'U' || d == 'L':
				mode = d
			case d == 'E':
				mode = 0
			case d == 'u' || d == 'l':
				once = d
			default:
				put(string(d))
			}
		default:
			_, size := utf8.DecodeRuneInString(repl[i:])
			put(repl[i : i+size])
			i += size - 1
		}
	}
	return b.String()
}

// sedEscape renders the pattern space as l does: escapes for
// non-printing bytes, lines folded at 69 characters with a backslash,
// and a final $.
func sedEscape(s string) string {
	var out strings.Builder
	col := 0
	put := func(t string) {
		if col+len(t) > 69 {
			out.WriteString("\\\n")
			col = 0
		}
		out.WriteString(t)
		col += len(t)
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\':
			put(`\\`)
		case ch == '\n':
			put(`\n`)
		case ch == '\t':
			put(`\t`)
		case ch == '\a':
			put(`\a`)
		case ch == '\b':
			put(`\b`)
		case ch == '\f':
			put(`\f`)
		case ch == '\r':
			put(`\r`)
		case ch == '\v':
			put(`\v`)
		case ch < 32 || ch >= 127:
			put("\\" + strconv.FormatInt(int64(ch)+0o1000, 8)[1:])
		default:
			put(string(ch))
		}
	}
	out.WriteString("$\n")
	return out.String()
}
