// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). It holds the short
// cuts that keep the common words of a loop body from going through the
// whole expansion machinery. In the wasm guest every function call and
// allocation costs many times what it costs natively, so a word such as
// -lt or 2000 that expands to itself must not cost a field splitter, a
// tilde check, a brace split and a glob scan per use.

package expand

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// plainText reports whether s is unquoted literal text that every
// expansion leaves alone: no backslash (quote removal), no tilde (tilde
// expansion, which an assignment also does after a colon), no brace
// (brace expansion), no glob pattern, no NUL (cut by the expansion),
// and only printable ASCII, so no rune decoding is involved.
func plainText(s string) bool {
	bracket := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '~', '{', '*', '?':
			return false
		case '[':
			bracket = true
		case ']':
			if bracket {
				return false // a bracket expression (a lone [ is literal, as for pattern.HasMeta)
			}
		default:
			if c <= ' ' || c >= 0x7f {
				return false
			}
		}
	}
	return true
}

// plainLit returns the text of a word that is one literal part of plain
// text.
func plainLit(word *syntax.Word) (string, bool) {
	if len(word.Parts) != 1 {
		return "", false
	}
	lit, ok := word.Parts[0].(*syntax.Lit)
	if !ok || !plainText(lit.Value) {
		return "", false
	}
	return lit.Value, true
}

// literalParam is Literal's short cut for a word that is one parameter
// expansion, which Literal takes whole, with no quote removal to do.
func literalParam(word *syntax.Word) (*syntax.ParamExp, bool) {
	if len(word.Parts) != 1 {
		return nil, false
	}
	pe, ok := word.Parts[0].(*syntax.ParamExp)
	return pe, ok
}

// simpleParam returns the expansion of a word that is exactly $name, name
// a variable (not a special or positional parameter).
func simpleParam(word *syntax.Word) (*syntax.ParamExp, bool) {
	if len(word.Parts) != 1 {
		return nil, false
	}
	pe, ok := word.Parts[0].(*syntax.ParamExp)
	if !ok || !pe.Short || pe.Param == nil || pe.Flags != nil || pe.NestedParam != nil ||
		pe.Excl || pe.Length || pe.Width || pe.IsSet || pe.Index != nil || pe.Slice != nil ||
		pe.Repl != nil || pe.Exp != nil || pe.Names != 0 || len(pe.Modifiers) > 0 ||
		!syntax.ValidName(pe.Param.Value) {
		return nil, false
	}
	return pe, true
}

// appendParam is FieldsSeq's short cut for a word that is exactly $name:
// no field when the value is empty, the value itself when it holds no IFS
// character and no glob character, else the value split and globbed as
// the full path would (from the value already expanded: expanding again
// would draw $RANDOM twice).
func (cfg *Config) appendParam(dst []string, pe *syntax.ParamExp) ([]string, error) {
	val, err := cfg.paramExp(pe)
	if err != nil || val == "" {
		return dst, err
	}
	if !hasGlobByte(val) && !cfg.hasIFS(val) {
		return append(dst, val), nil
	}
	s := &splitter{cfg: cfg}
	s.split(val)
	return cfg.appendParts(dst, s.end())
}

// hasIFS reports whether s may hold an IFS character (any non-ASCII byte
// counts, so multi-byte separators take the full path).
func (cfg *Config) hasIFS(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || ifsHas(cfg.ifs, rune(s[i])) {
			return true
		}
	}
	return false
}

// plainField is FieldsSeq's short cut: a non-empty plain literal word is
// exactly one field, itself (literal text is not split on IFS, and it has
// nothing to expand or glob).
func plainField(word *syntax.Word) (string, bool) {
	s, ok := plainLit(word)
	return s, ok && s != ""
}

// hasGlobByte reports whether s holds a glob character (*, ? or [).
func hasGlobByte(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[':
			return true
		}
	}
	return false
}

// ifsHas reports whether r is one of the characters of ifs, without a
// call per character for the usual ASCII separators.
func ifsHas(ifs string, r rune) bool {
	if r < 0x80 {
		for i := 0; i < len(ifs); i++ {
			if ifs[i] == byte(r) {
				return true
			}
		}
		return false
	}
	for _, c := range ifs {
		if c == r {
			return true
		}
	}
	return false
}

// litHasBrace reports whether a literal part of parts holds a '{', the
// only thing syntax.SplitBraces acts on.
func litHasBrace(parts []syntax.WordPart) bool {
	for _, wp := range parts {
		if lit, ok := wp.(*syntax.Lit); ok && strings.IndexByte(lit.Value, '{') >= 0 {
			return true
		}
	}
	return false
}
