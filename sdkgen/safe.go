package sdkgen

import (
	"fmt"
	"strings"
)

// Text from a tool's definition (an MCP server's descriptions, titles,
// enum values, property names) lands in generated source, which people
// read in terminals, editors and code review. No character that can
// drive a terminal or reorder what is shown may stand in it raw: C0
// controls but tab and newline, DEL, C1 controls (U+0080–U+009F, where
// CSI is U+009B), the line and paragraph separators and the bidi
// controls (embeddings, overrides, isolates and marks: "Trojan Source").
// String literals escape them (\uXXXX); comments and docstrings show them
// as visible escapes. sdkgen imports nothing of ptc's, so this is its own
// rule for its own output; internal/termsafe does the same for terminals.

// unsafeRune reports whether r must not appear raw in generated source.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n'
	case r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029, r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// visible shows every unsafe rune of s as a visible escape (\x1b,
// \u202e) for a comment.
func visible(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !unsafeRune(r):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
