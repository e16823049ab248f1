package sdkgen

import (
	"regexp/syntax"
	"strings"
)

// keyTemplate converts a patternProperties regular expression to a
// TypeScript template literal type that matches exactly the keys the
// expression matches, so that an index signature over it types those keys
// and no others. Only literal text with optional ^ and $ anchors converts
// (an unanchored end may also carry parts that match the empty string,
// such as a*): anything else, . included (it stops at a line break, which
// ${string} does not), reports false. A pattern anchored at both ends is
// one key, returned as literal with ok.
func keyTemplate(pattern string) (tmpl string, literal bool, ok bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false, false
	}
	re = re.Simplify()
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	start := len(subs) > 0 && subs[0].Op == syntax.OpBeginText
	if start {
		subs = subs[1:]
	}
	end := len(subs) > 0 && subs[len(subs)-1].Op == syntax.OpEndText
	if end {
		subs = subs[:len(subs)-1]
	}
	for !start && len(subs) > 0 && matchesEmpty(subs[0]) {
		subs = subs[1:]
	}
	for !end && len(subs) > 0 && matchesEmpty(subs[len(subs)-1]) {
		subs = subs[:len(subs)-1]
	}
	var lit strings.Builder
	for _, s := range subs {
		if s.Op != syntax.OpLiteral || s.Flags&syntax.FoldCase != 0 {
			return "", false, false
		}
		lit.WriteString(string(s.Rune))
	}
	switch {
	case start && end:
		return lit.String(), true, true
	case lit.Len() == 0:
		return "string", false, true // an unanchored pattern that matches "" matches every key
	}
	var b strings.Builder
	b.WriteByte('`')
	if !start {
		b.WriteString("${string}")
	}
	b.WriteString(templateText(lit.String()))
	if !end {
		b.WriteString("${string}")
	}
	b.WriteByte('`')
	return b.String(), false, true
}

// matchesEmpty reports whether a regular expression can match "".
func matchesEmpty(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpRepeat:
		return re.Min == 0
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !matchesEmpty(s) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if matchesEmpty(s) {
				return true
			}
		}
	case syntax.OpCapture:
		return matchesEmpty(re.Sub[0])
	}
	return false
}

// templateText escapes text for the inside of a template literal type.
func templateText(s string) string {
	q := quoteJSON(s) // escapes \, ", controls, U+2028/9
	q = q[1 : len(q)-1]
	q = strings.ReplaceAll(q, `\"`, `"`)
	q = strings.ReplaceAll(q, "`", "\\`")
	return strings.ReplaceAll(q, "$", `\$`)
}
