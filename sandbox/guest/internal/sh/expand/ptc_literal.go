// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md).

package expand

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// unescapeLits returns parts with quote removal applied to the
// backslashes of unquoted literal text: "\c" becomes a quoted "c" (so a
// quoted ~ is not expanded) and a trailing backslash stays. Literal needs
// it; Pattern must not have it, since there the backslash escapes a glob
// character.
func unescapeLits(parts []syntax.WordPart) []syntax.WordPart {
	var out []syntax.WordPart
	for i, wp := range parts {
		lit, ok := wp.(*syntax.Lit)
		if !ok || !strings.Contains(lit.Value, `\`) {
			if out != nil {
				out = append(out, wp)
			}
			continue
		}
		if out == nil {
			out = append([]syntax.WordPart(nil), parts[:i]...)
		}
		s := lit.Value
		for {
			j := strings.IndexByte(s, '\\')
			if j < 0 || j == len(s)-1 {
				break
			}
			if j > 0 {
				out = append(out, &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: s[:j]})
			}
			n := 1
			for n < len(s)-j-1 && s[j+1+n]&0xC0 == 0x80 {
				n++ // the rest of a UTF-8 sequence
			}
			if s[j+1] != '\n' { // a backslash-newline is a line continuation
				out = append(out, &syntax.SglQuoted{Left: lit.ValuePos, Right: lit.ValueEnd, Value: s[j+1 : j+1+n]})
			}
			s = s[j+1+n:]
		}
		if s != "" {
			out = append(out, &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: s})
		}
	}
	if out == nil {
		return parts
	}
	return out
}

// Regexp expands the right side of [[ x =~ re ]]: quoted parts match
// literally (they are escaped), unquoted ones are regex syntax, their
// backslashes included. Upstream removed the quotes and the backslashes,
// so [[ x =~ "a.b" ]] matched "axb" and \[\] was no longer a literal [].
func Regexp(cfg *Config, word *syntax.Word) (string, error) {
	cfg = prepareConfig(cfg)
	field, err := cfg.wordField(word.Parts, quoteNone)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	for _, part := range field {
		if part.quote > quoteNone {
			sb.WriteString(regexp.QuoteMeta(part.val))
		} else {
			sb.WriteString(part.val)
		}
	}
	return sb.String(), nil
}
