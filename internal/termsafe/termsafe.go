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

	"github.com/mattn/go-runewidth"

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

// Visible is Line for text a person must read to the last character
// before allowing it (a command in an approval): besides what Line
// escapes, every run of two or more spaces shows as a marker with its
// length, "⟨300 spaces⟩", so padding cannot push the rest of a command
// out of sight; characters that look like a space or like nothing at all
// (no-break and other Unicode spaces, zero-width characters, the BOM)
// show escaped, and so does a literal "⟨", so the marker cannot be faked.
func Visible(s string) string {
	var b strings.Builder
	line := Line(s)
	for i := 0; i < len(line); {
		if line[i] == ' ' {
			n := 1
			for i+n < len(line) && line[i+n] == ' ' {
				n++
			}
			if n == 1 {
				b.WriteByte(' ')
			} else {
				fmt.Fprintf(&b, "⟨%d spaces⟩", n)
			}
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		if r == '⟨' || invisibleRune(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteString(line[i : i+size])
		}
		i += size
	}
	return b.String()
}

// invisibleRune reports characters that display as blank or as nothing.
func invisibleRune(r rune) bool {
	switch {
	case r == 0x00a0 || r == 0x1680 || r == 0x180e || r == 0x202f || r == 0x205f || r == 0x3000:
		return true
	case r >= 0x2000 && r <= 0x200d: // en quad … zero-width joiner
		return true
	case r == 0x2060 || r == 0xfeff || r == 0x00ad: // word joiner, BOM, soft hyphen
		return true
	}
	return false
}

// lastSpace is the index of the last space of s outside a marker, or -1.
func lastSpace(s string) int {
	sp := strings.LastIndexByte(s, ' ')
	for sp >= 0 && strings.LastIndex(s[:sp], "⟨") > strings.LastIndex(s[:sp], "⟩") {
		sp = strings.LastIndexByte(s[:sp], ' ')
	}
	return sp
}

// Wrap cuts s (already made safe: one line, no escapes to drive the
// terminal) into rows of at most width columns, counting wide characters
// as two, so every character of s appears exactly once. A row breaks
// after a space in its second half rather than inside a word, and a
// marker of Visible is kept whole on a row when it fits one.
func Wrap(s string, width int) []string {
	width = max(width, 8)
	var rows []string
	for s != "" {
		cut, cols := 0, 0
		for cut < len(s) {
			r, size := utf8.DecodeRuneInString(s[cut:])
			w := runewidth.RuneWidth(r)
			if cols+w > width {
				break
			}
			cols += w
			cut += size
		}
		if cut == 0 { // a character wider than the row
			_, cut = utf8.DecodeRuneInString(s)
		}
		if open := strings.LastIndex(s[:cut], "⟨"); open > 0 && !strings.Contains(s[open:cut], "⟩") {
			cut = open
		} else if sp := lastSpace(s[:cut]); cut < len(s) && sp >= cut/2 {
			cut = sp + 1 // break after a space rather than inside a word
		}
		rows = append(rows, s[:cut])
		s = s[cut:]
	}
	if rows == nil {
		rows = []string{""}
	}
	return rows
}
