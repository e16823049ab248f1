// Package termsafe is ptc's one sanitiser for text that reaches a terminal
// but was written by someone else: a model (answers, tool names,
// arguments, an escalation's justification), a program it ran, a tool
// result, a repository (file names and contents, configs) or an MCP
// server. Such text must not be able to drive the terminal: an escape
// sequence can clear the screen, move the cursor and draw a fake approval
// prompt; a bidi override can make "run ls read-only" display over a
// different command.
//
// Every such character is kept but shown visibly escaped, so nothing the
// user should see is hidden:
//
//	C0 controls but tab and newline, DEL     \x1b \x07 \r \x7f
//	C1 controls (U+0080–U+009F)              \u009b
//	bidi embeddings, overrides, isolates     \u202e \u2066
//	and marks (LRM, RLM, ALM)                \u200f
//	line and paragraph separators            \u2028
//	invalid UTF-8 bytes                      \xff
//
// Text keeps its newlines and tabs; Line also escapes those, for values
// that must stay on one line (tool names, commands in a status line).
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ptc-dev/ptc/internal/clip"
)

// String returns s with every character that could drive a terminal
// shown as a visible escape. Newlines and tabs are kept. Text that needs
// no change is returned as is, without allocating.
func String(s string) string { return escape(s, false) }

// Line is String for text that must stay on one line: newlines and tabs
// are escaped as well (\n, \t).
func Line(s string) string { return escape(s, true) }

// Clip is Line cut to at most max bytes of the escaped text, at a
// character boundary, with "…" marking the cut.
func Clip(s string, max int) string { return clip.String(Line(s), max) }

// clean reports whether s would come out of String (or, with oneLine, of
// Line) unchanged: the fast path that lets clean text through uncopied.
func clean(s string, oneLine bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if unsafeASCII(c, oneLine) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafeRune(r) {
			return false
		}
		i += size
	}
	return true
}

func escape(s string, oneLine bool) string {
	if clean(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case !unsafeASCII(c, oneLine):
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\r':
				b.WriteString(`\r`)
			default:
				fmt.Fprintf(&b, `\x%02x`, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, c)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func unsafeASCII(c byte, oneLine bool) bool {
	switch {
	case c == '\n' || c == '\t':
		return oneLine
	case c < 0x20 || c == 0x7f:
		return true
	}
	return false
}

// unsafeRune reports the non-ASCII characters that change how a terminal
// behaves or how surrounding text is ordered on screen.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls (CSI, OSC, ST as one code point)
		return true
	case r >= 0x202a && r <= 0x202e: // LRE RLE PDF LRO RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI RLI FSI PDI
		return true
	case r == 0x200e || r == 0x200f || r == 0x061c: // LRM RLM ALM
		return true
	case r == 0x2028 || r == 0x2029: // line and paragraph separators
		return true
	}
	return false
}
