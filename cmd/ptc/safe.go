package main

import (
	"fmt"
	"strings"
)

// terminalSafe makes text from a model, a program or a repository safe to
// print on a terminal: control characters (ESC sequences that could move
// the cursor, retitle the window or rewrite the screen, C1 controls, DEL)
// are shown as visible \x.. escapes. Newlines and tabs are kept.
func terminalSafe(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unsafeRune(r) {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	}
	return false
}
