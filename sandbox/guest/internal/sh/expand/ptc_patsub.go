// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). It replaces
// replaceElems, the ${x/pattern/string} expansion, because upstream
//
//   - ignores the anchors of ${x/#pat/s} and ${x/%pat/s} (they were taken
//     as a literal '#' or '%', so nothing matched and the value came back
//     unchanged);
//   - does nothing for ${x/#/s} and ${x/%/s} (prepend and append);
//   - reads ${x////c} (replace every slash) as an empty pattern;
//   - lacks bash 5.2's patsub_replacement: an unquoted & in the string is
//     the matched text (\& is a literal &).

package expand

import (
	"regexp"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// replSegment is a piece of the replacement string: literal text, or the
// matched text (an unquoted &).
type replSegment struct {
	text  string
	match bool
}

func (cfg *Config) ptcReplaceElems(repl *syntax.Replace, elems []string) ([]string, error) {
	origWord, withWord := repl.Orig, repl.With
	if origWord == nil && repl.All && withWord != nil && len(withWord.Parts) > 0 {
		// ${x////c}: the parser saw an empty pattern and "/c".
		if lit, ok := withWord.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(lit.Value, "/") {
			origWord = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "/"}}}
			rest := *lit
			rest.Value = lit.Value[1:]
			withWord = &syntax.Word{Parts: append([]syntax.WordPart{&rest}, withWord.Parts[1:]...)}
		}
	}
	anchor := byte(0)
	if origWord != nil && len(origWord.Parts) > 0 {
		if lit, ok := origWord.Parts[0].(*syntax.Lit); ok && (strings.HasPrefix(lit.Value, "#") || strings.HasPrefix(lit.Value, "%")) {
			anchor = lit.Value[0]
			rest := *lit
			rest.Value = lit.Value[1:]
			origWord = &syntax.Word{Parts: append([]syntax.WordPart{&rest}, origWord.Parts[1:]...)}
		}
	}
	pat := ""
	if origWord != nil {
		var err error
		if pat, err = Pattern(cfg, origWord); err != nil {
			return nil, err
		}
	}
	if pat == "" && anchor == 0 {
		return elems, nil // nothing to replace
	}
	with, err := cfg.replSegments(withWord)
	if err != nil {
		return nil, err
	}
	expr, err := pattern.Regexp(pat, 0)
	if err != nil {
		return elems, nil
	}
	switch anchor {
	case '#':
		expr = "^(?:" + expr + ")"
	case '%':
		expr = "(?:" + expr + ")$"
	}
	rx, err := regexp.Compile(expr)
	if err != nil {
		return elems, nil
	}
	n := 1
	if repl.All && anchor == 0 {
		n = -1
	}
	out := make([]string, len(elems))
	for i, elem := range elems {
		var sb strings.Builder
		last := 0
		for _, loc := range rx.FindAllStringIndex(elem, n) {
			sb.WriteString(elem[last:loc[0]])
			for _, seg := range with {
				if seg.match {
					sb.WriteString(elem[loc[0]:loc[1]])
				} else {
					sb.WriteString(seg.text)
				}
			}
			last = loc[1]
		}
		sb.WriteString(elem[last:])
		out[i] = sb.String()
	}
	return out, nil
}

// replSegments expands the replacement string, keeping each unquoted &
// as a reference to the match.
func (cfg *Config) replSegments(w *syntax.Word) ([]replSegment, error) {
	if w == nil {
		return nil, nil
	}
	var segs []replSegment
	for _, wp := range w.Parts {
		lit, ok := wp.(*syntax.Lit)
		if !ok || !strings.ContainsAny(lit.Value, `&\`) {
			s, err := Literal(cfg, &syntax.Word{Parts: []syntax.WordPart{wp}})
			if err != nil {
				return nil, err
			}
			segs = append(segs, replSegment{text: s})
			continue
		}
		var sb strings.Builder
		v := lit.Value
		for i := 0; i < len(v); i++ {
			switch {
			case v[i] == '\\' && i+1 < len(v):
				i++
				sb.WriteByte(v[i])
			case v[i] == '&':
				segs = append(segs, replSegment{text: sb.String()}, replSegment{match: true})
				sb.Reset()
			default:
				sb.WriteByte(v[i])
			}
		}
		segs = append(segs, replSegment{text: sb.String()})
	}
	return segs, nil
}
