// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). Bash expands a tilde
// prefix at the start of an assignment's value and after every colon in
// it (x=foo:~/bin, PATH=~/bin:$PATH); upstream only expands one at the
// very start of a word, so the tilde stayed literal.

package expand

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// LiteralAssign expands the value of an assignment: like Literal, with
// the tilde prefixes bash expands after '=' and ':'.
func LiteralAssign(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	if !litHasTilde(word.Parts) {
		return Literal(cfg, word) // no tilde anywhere: the usual case, without a copy
	}
	cfg = prepareConfig(cfg)
	w := *word
	w.Parts = cfg.assignTildes(word.Parts, 0)
	return Literal(cfg, &w)
}

// assignTildes returns parts with each tilde prefix in the unquoted
// literal text (at offset start of the first part, or right after a ':')
// replaced by the home directory it names, as a quoted part.
func (cfg *Config) assignTildes(parts []syntax.WordPart, start int) []syntax.WordPart {
	if !litHasTilde(parts) {
		return parts // the usual case, without a copy of the parts
	}
	var out []syntax.WordPart
	changed := false
	for i, wp := range parts {
		lit, ok := wp.(*syntax.Lit)
		if !ok {
			out = append(out, wp)
			continue
		}
		s := lit.Value
		from := 0 // start of the text not yet copied
		for p := 0; p < len(s); p++ {
			atStart := (i == 0 && p == start) || (p > 0 && s[p-1] == ':')
			if s[p] != '~' || !atStart {
				continue
			}
			end := p + 1
			for end < len(s) && s[end] != '/' && s[end] != ':' {
				end++
			}
			if end == len(s) && i < len(parts)-1 {
				continue // ~$x: the prefix does not end in this literal
			}
			home, _ := cfg.expandUser(s[p:end], false)
			if home == "" {
				continue
			}
			if p > from {
				out = append(out, &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: s[from:p]})
			}
			out = append(out, &syntax.SglQuoted{Left: lit.ValuePos, Right: lit.ValueEnd, Value: home})
			from, p, changed = end, end-1, true
		}
		if from == 0 {
			out = append(out, wp)
		} else if from < len(s) {
			out = append(out, &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: s[from:]})
		}
	}
	if !changed {
		return parts
	}
	return out
}

// assignmentLike reports where the value starts in a word that looks like
// an assignment (NAME=...); bash expands its tildes like an assignment's
// even when it is an argument (echo x=~).
func assignmentLike(parts []syntax.WordPart) (int, bool) {
	if len(parts) == 0 {
		return 0, false
	}
	lit, ok := parts[0].(*syntax.Lit)
	if !ok {
		return 0, false
	}
	name, _, found := strings.Cut(lit.Value, "=")
	if !found || !syntax.ValidName(name) {
		return 0, false
	}
	return len(name) + 1, true
}

// litHasTilde reports whether a literal part of parts holds a tilde.
func litHasTilde(parts []syntax.WordPart) bool {
	for _, wp := range parts {
		if lit, ok := wp.(*syntax.Lit); ok && strings.IndexByte(lit.Value, '~') >= 0 {
			return true
		}
	}
	return false
}
