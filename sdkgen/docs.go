package sdkgen

import (
	"fmt"
	"strings"
)

// maxDocValue caps how much of a default or example is quoted in a doc.
const maxDocValue = 200

// docLines renders the annotation keywords of a schema as plain doc lines
// (no comment syntax): title, description, then one line per constraint
// the type itself cannot say.
func docLines(s *value) []string {
	if s == nil || s.kind != kObject {
		return nil
	}
	var out []string
	title, desc := s.str("title"), s.str("description")
	if title != "" && title != desc {
		out = append(out, splitLines(title)...)
	}
	if desc != "" {
		out = append(out, splitLines(desc)...)
	}
	if f := s.str("format"); f != "" {
		out = append(out, "Format: "+f+".")
	}
	if p := s.str("pattern"); p != "" {
		out = append(out, "Pattern: "+p)
	}
	for _, k := range []struct{ key, label string }{
		{"minimum", "Minimum"}, {"exclusiveMinimum", "Greater than"},
		{"maximum", "Maximum"}, {"exclusiveMaximum", "Less than"},
		{"multipleOf", "Multiple of"},
		{"minLength", "Minimum length"}, {"maxLength", "Maximum length"},
		{"minItems", "Minimum items"}, {"maxItems", "Maximum items"},
	} {
		if v := s.get(k.key); v != nil && v.kind == kNumber {
			out = append(out, k.label+": "+v.s+".")
		}
	}
	if s.isTrue("uniqueItems") {
		out = append(out, "Items are unique.")
	}
	if s.isTrue("writeOnly") {
		out = append(out, "Write-only.")
	}
	if v := s.get("default"); v != nil {
		out = append(out, "@default "+docValue(v))
	}
	if ex := s.get("examples"); ex != nil && ex.kind == kArray {
		for i, e := range ex.arr {
			if i == 3 {
				break
			}
			out = append(out, "@example "+docValue(e))
		}
	} else if e := s.get("example"); e != nil {
		out = append(out, "@example "+docValue(e))
	}
	if s.isTrue("deprecated") {
		out = append(out, "@deprecated")
	}
	return out
}

func docValue(v *value) string {
	s := canonical(v)
	if len(s) > maxDocValue {
		cut := maxDocValue
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// splitLines splits text into lines with trailing space removed and
// leading/trailing blank lines dropped.
func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(strings.ReplaceAll(l, "\r", " "), " \t")
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// jsDoc renders doc lines as a JSDoc comment at the given indent, with
// "*/" escaped so no text can end the comment early, and no character
// that could drive a terminal shown raw (safe.go).
func jsDoc(lines []string, indent string) string {
	if len(lines) == 0 {
		return ""
	}
	esc := make([]string, len(lines))
	for i, l := range lines {
		esc[i] = strings.ReplaceAll(visible(l), "*/", `*\/`)
	}
	if len(esc) == 1 {
		return fmt.Sprintf("%s/** %s */\n", indent, esc[0])
	}
	var b strings.Builder
	b.WriteString(indent + "/**\n")
	for _, l := range esc {
		if l == "" {
			b.WriteString(indent + " *\n")
		} else {
			b.WriteString(indent + " * " + l + "\n")
		}
	}
	b.WriteString(indent + " */\n")
	return b.String()
}
