package sdkgen

import (
	"strconv"
	"strings"
	"unicode"
)

// pascal turns a tool name, definition key or property name into a
// PascalCase identifier fragment made of ASCII letters and digits.
func pascal(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		switch {
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if up {
				b.WriteRune(unicode.ToUpper(r))
			} else {
				b.WriteRune(r)
			}
			up = false
		default:
			up = true
		}
	}
	out := b.String()
	if out == "" {
		return "T"
	}
	if out[0] >= '0' && out[0] <= '9' {
		out = "T" + out
	}
	return out
}

// isIdent reports whether s is an ASCII identifier ([A-Za-z_$][A-Za-z0-9_$]*
// when dollar is true, Python's rule without $ otherwise).
func isIdent(s string, dollar bool) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		ok := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (dollar && r == '$')
		if i > 0 {
			ok = ok || (r >= '0' && r <= '9')
		}
		if !ok {
			return false
		}
	}
	return true
}

// namer hands out unique names. Reserved names are never given out.
type namer struct {
	used map[string]bool
	max  int
}

func newNamer(reserved ...string) *namer {
	n := &namer{used: map[string]bool{}, max: 100}
	for _, r := range reserved {
		n.used[r] = true
	}
	return n
}

// take returns hint if free, else alt if free, else hint with the lowest
// numeric suffix from 2 that is free. Long hints are cut to keep names
// readable.
func (n *namer) take(hint, alt string) string {
	if len(hint) > n.max {
		hint = hint[:n.max]
	}
	if !n.used[hint] {
		n.used[hint] = true
		return hint
	}
	if alt != "" && len(alt) <= n.max && !n.used[alt] {
		n.used[alt] = true
		return alt
	}
	for i := 2; ; i++ {
		c := hint + strconv.Itoa(i)
		if !n.used[c] {
			n.used[c] = true
			return c
		}
	}
}
