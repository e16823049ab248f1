// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). It replaces the
// field splitting of wordFields with bash's rules, which upstream gets
// wrong in ways that silently change what a script does:
//
//   - a non-whitespace IFS character delimits a field of its own, so
//     IFS=,; x=1,,3 splits into "1", "", "3" (upstream drops the empty
//     field, and CSV parsing goes quietly wrong);
//   - "-$@-" is three words when there are three parameters (upstream
//     joins them into one unless "$@" is the whole quoted part);
//   - the word of ${x:-word} and ${x:+word} keeps its own quoting, so
//     ${u:-'a b'} is one field (upstream splits it);
//   - unquoted ${!prefix@} and ${!a[@]} give a field per name even when
//     IFS is empty.

package expand

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// splitter accumulates the fields of one word as its parts expand.
type splitter struct {
	cfg    *Config
	fields [][]fieldPart
	cur    []fieldPart
	// started: cur is a field, because something that is not a field
	// separator went into it, or a delimiter created it empty.
	started bool
	// wsEnded: the last thing seen was IFS whitespace that ended a field,
	// so a non-whitespace IFS character right after it belongs to the
	// same delimiter.
	wsEnded bool
}

// keep adds text that is never split (literal text, quoted text, the
// result of a quoted expansion) to the current field.
func (s *splitter) keep(val string, q quoteLevel) {
	s.cur = append(s.cur, fieldPart{val: val, quote: q})
	s.started, s.wsEnded = true, false
}

func (s *splitter) flush() {
	s.fields = append(s.fields, s.cur)
	s.cur, s.started = nil, false
}

// boundary ends the current field, even an empty one: the break between
// two elements of a quoted "$@".
func (s *splitter) boundary() {
	s.flush()
	s.wsEnded = false
}

// softBoundary ends the current field if it has anything: the break
// between two elements of an unquoted $@.
func (s *splitter) softBoundary() {
	if s.started {
		s.flush()
	}
	s.wsEnded = false
}

// split adds the result of an unquoted expansion, splitting it on IFS.
func (s *splitter) split(val string) {
	start := -1 // start of the run of non-IFS characters being collected
	for i, r := range val {
		if !s.cfg.ifsRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			s.keep(val[start:i], quoteNone)
			start = -1
		}
		switch {
		case s.cfg.ifsWhitespace(r):
			if s.started {
				s.flush()
				s.wsEnded = true
			}
		case s.started:
			s.flush()
		case s.wsEnded:
			s.wsEnded = false // "a _b": the blank and the _ are one delimiter
		default:
			s.flush() // "_a" or "a__b": an empty field
		}
	}
	if start >= 0 {
		s.keep(val[start:], quoteNone)
	}
}

func (s *splitter) end() [][]fieldPart {
	if s.started {
		s.flush()
	}
	return s.fields
}

// ptcWordFields expands the parts of one word into fields.
func (cfg *Config) ptcWordFields(wps []syntax.WordPart) ([][]fieldPart, error) {
	s := &splitter{cfg: cfg}
	wps = joinLeadingLits(wps)
	if start, ok := assignmentLike(wps); ok {
		wps = cfg.assignTildes(wps, start)
	}
	if err := s.parts(wps, false); err != nil {
		return nil, err
	}
	return s.end(), nil
}

// parts expands word parts into s. inParam is set for the word of an
// unquoted ${x:-word}, whose literal text is split like an expansion.
func (s *splitter) parts(wps []syntax.WordPart, inParam bool) error {
	cfg := s.cfg
	for i, wp := range wps {
		switch wp := wp.(type) {
		case *syntax.Lit:
			str := wp.Value
			if i == 0 {
				prefix, rest := cfg.expandUser(str, len(wps) > 1)
				if prefix != "" {
					s.keep(prefix, quoteSingle)
				}
				str = rest
			}
			s.lit(str, inParam)
		case *syntax.SglQuoted:
			val := wp.Value
			if wp.Dollar {
				val, _, _ = Format(cfg, val, nil)
				val, _, _ = strings.Cut(val, "\x00")
			}
			s.keep(val, quoteSingle)
		case *syntax.DblQuoted:
			if err := s.dblQuoted(wp); err != nil {
				return err
			}
		case *syntax.ParamExp:
			if err := s.paramExp(wp); err != nil {
				return err
			}
		case *syntax.CmdSubst:
			val, err := cfg.cmdSubst(wp)
			if err != nil {
				return err
			}
			s.split(val)
		case *syntax.ArithmExp:
			n, err := Arithm(cfg, wp.X)
			if err != nil {
				return err
			}
			s.split(strconv.Itoa(n))
		case *syntax.ProcSubst:
			path, err := cfg.ProcSubst(wp)
			if err != nil {
				return err
			}
			s.keep(path, quoteNone)
		case *syntax.ExtGlob:
			if !cfg.ExtGlob {
				return fmt.Errorf("extended globbing operator used without the \"extglob\" option set")
			}
			s.keep(wp.Op.String()+wp.Pattern.Value+")", quoteNone)
		default:
			return fmt.Errorf("unhandled word part: %T", wp)
		}
	}
	return nil
}

// lit adds unquoted literal text. A backslash quotes the character after
// it (kept as its own single-quoted part so globbing sees it quoted).
// Inside the word of ${x:-word} the rest is split like an expansion.
func (s *splitter) lit(str string, split bool) {
	add := func(v string) {
		if split {
			s.split(v)
		} else if v != "" {
			s.keep(v, quoteNone)
		}
	}
	for {
		i := strings.IndexByte(str, '\\')
		if i < 0 || i == len(str)-1 {
			break // a trailing backslash is kept as-is
		}
		_, size := utf8.DecodeRuneInString(str[i+1:])
		add(str[:i])
		s.keep(str[i+1:i+1+size], quoteSingle)
		str = str[i+1+size:]
	}
	add(str)
}

// dblQuoted adds a double-quoted part. Inside it, "$@" and "${a[@]}"
// still make a field per element: the text before joins the first one and
// the text after joins the last. "$@" alone, with no parameters, is no
// field at all.
func (s *splitter) dblQuoted(dq *syntax.DblQuoted) error {
	mark, wasStarted, wasEnded := len(s.cur), s.started, s.wsEnded
	s.keep("", quoteDouble) // "" alone is an empty field
	empty, err := s.dquoteParts(dq.Parts)
	if err != nil {
		return err
	}
	if empty && len(dq.Parts) == 1 {
		s.cur, s.started, s.wsEnded = s.cur[:mark], wasStarted, wasEnded
	}
	return nil
}

// dquoteParts adds parts read inside double quotes. empty reports that
// they were a single list expansion with no elements.
func (s *splitter) dquoteParts(parts []syntax.WordPart) (empty bool, err error) {
	cfg := s.cfg
	for _, wp := range parts {
		if lit, ok := wp.(*syntax.Lit); ok && strings.IndexByte(lit.Value, '\\') < 0 && strings.IndexByte(lit.Value, 0) < 0 {
			s.keep(lit.Value, quoteDouble) // what wordField makes of it, without its slices
			continue
		}
		pe, ok := wp.(*syntax.ParamExp)
		if !ok {
			field, err := cfg.wordField([]syntax.WordPart{wp}, quoteDouble)
			if err != nil {
				return false, err
			}
			for _, part := range field {
				s.keep(part.val, quoteDouble)
			}
			continue
		}
		elems, isList, err := cfg.quotedList(pe)
		if err != nil {
			return false, err
		}
		if isList {
			for i, e := range elems {
				if i > 0 {
					s.boundary()
				}
				s.keep(e, quoteDouble)
			}
			empty = len(elems) == 0
			continue
		}
		word, val, err := cfg.paramExpWord(pe)
		switch {
		case err != nil:
			return false, err
		case word != nil:
			// "${x:-word}": the word's own quotes and lists count.
			if empty, err = s.dquoteWord(word.Parts); err != nil {
				return false, err
			}
		default:
			s.keep(val, quoteDouble)
		}
	}
	return empty, nil
}

// dquoteWord adds the word of a "${x:-word}" used inside double quotes:
// quotes in it group text (single quotes stay as characters, and what they
// enclose still expands), lists still make a field per element.
func (s *splitter) dquoteWord(parts []syntax.WordPart) (empty bool, err error) {
	for _, wp := range parts {
		switch wp := wp.(type) {
		case *syntax.DblQuoted:
			if empty, err = s.dquoteParts(wp.Parts); err != nil {
				return false, err
			}
		case *syntax.ParamExp:
			if empty, err = s.dquoteParts([]syntax.WordPart{wp}); err != nil {
				return false, err
			}
		default:
			f, err := s.cfg.dquoteWordPart(wp)
			if err != nil {
				return false, err
			}
			for _, part := range f {
				s.keep(part.val, quoteDouble)
			}
		}
	}
	return empty, nil
}

// quotedList returns the elements of a quoted list expansion ("$@",
// "${a[@]}", "${!p@}", with per-element operators), and, for "${a[@]-w}"
// and the like, the elements when the word is not used. isList is false
// for anything else.
func (cfg *Config) quotedList(pe *syntax.ParamExp) (elems []string, isList bool, err error) {
	if pe.Exp != nil {
		switch pe.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			bare := *pe
			bare.Exp = nil
			list, err := cfg.quotedElemFields(&bare)
			if err != nil || list == nil {
				return nil, false, err
			}
			word, _, err := cfg.paramExpWord(pe)
			if err != nil || word != nil {
				return nil, false, err
			}
			if pe.Exp.Op == syntax.AlternateUnset || pe.Exp.Op == syntax.AlternateUnsetOrNull {
				return []string{}, true, nil
			}
			return list, true, nil
		}
	}
	list, err := cfg.quotedElemFields(pe)
	return list, list != nil, err
}

// paramExp adds an unquoted parameter expansion.
func (s *splitter) paramExp(pe *syntax.ParamExp) error {
	cfg := s.cfg
	elems, ok, err := cfg.unquotedListOps(pe)
	if err != nil {
		return err
	}
	if !ok {
		elems, ok = cfg.unquotedElemFields(pe)
	}
	if ok {
		if cfg.ifs != "" {
			// Bash joins the elements with the first IFS character and
			// splits the result, so with IFS=x the empty ones delimit
			// empty fields.
			_, size := utf8.DecodeRuneInString(cfg.ifs)
			s.split(strings.Join(elems, cfg.ifs[:size]))
			return nil
		}
		for j, e := range elems {
			if j > 0 {
				s.softBoundary()
			}
			s.split(e)
		}
		return nil
	}
	if names, ok := cfg.excludedNames(pe); ok {
		for j, n := range names {
			if j > 0 {
				s.softBoundary()
			}
			s.split(n)
		}
		return nil
	}
	word, val, err := cfg.paramExpWord(pe)
	if err != nil {
		return err
	}
	if word != nil {
		return s.parts(word.Parts, true)
	}
	s.split(val)
	return nil
}

// excludedNames returns the names of ${!prefix@} and the keys of
// ${!a[@]}, which split into a field each.
func (cfg *Config) excludedNames(pe *syntax.ParamExp) ([]string, bool) {
	if !pe.Excl || pe.Param == nil || pe.Length || pe.Repl != nil || pe.Exp != nil || pe.Slice != nil {
		return nil, false
	}
	if pe.Names == syntax.NamesPrefixWords {
		return cfg.namesByPrefix(pe.Param.Value), true
	}
	if pe.Names == 0 && nodeLit(pe.Index) == "@" {
		elems, err := cfg.quotedElemFields(pe)
		return elems, err == nil && elems != nil
	}
	return nil, false
}

// paramWordMarker stands in for the word of ${x:-word} to learn whether
// paramExp would substitute it. (Literal cuts at NUL, so no NUL here; a
// script that produces this exact value only confuses its own expansion.)
const paramWordMarker = "\x01ptc:param-word\x01"

// paramExpWord expands pe. When pe is ${x-word}, ${x:-word}, ${x+word} or
// ${x:+word} and the word is what it expands to, the word itself is
// returned, so that its quoting survives; otherwise the value is.
func (cfg *Config) paramExpWord(pe *syntax.ParamExp) (*syntax.Word, string, error) {
	if pe.Exp == nil || pe.Exp.Word == nil {
		val, err := cfg.paramExp(pe)
		return nil, val, err
	}
	switch pe.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
	default:
		val, err := cfg.paramExp(pe)
		return nil, val, err
	}
	probe := *pe
	exp := *pe.Exp
	exp.Word = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: paramWordMarker}}}
	probe.Exp = &exp
	val, err := cfg.paramExp(&probe)
	if err != nil {
		return nil, "", err
	}
	if val == paramWordMarker {
		return pe.Exp.Word, "", nil
	}
	return nil, val, nil
}

// dquoteParamWord expands ${x:-word} inside double quotes when its word
// is used: bash reads the word like double-quoted text, so single quotes
// in it are literal characters (and what they enclose still expands) and
// a backslash also escapes a closing brace. ok is false when the value of
// x is used instead (val holds it).
func (cfg *Config) dquoteParamWord(pe *syntax.ParamExp) (parts []fieldPart, val string, ok bool, err error) {
	word, val, err := cfg.paramExpWord(pe)
	if err != nil || word == nil {
		return nil, val, false, err
	}
	for _, wp := range word.Parts {
		f, err := cfg.dquoteWordPart(wp)
		if err != nil {
			return nil, "", false, err
		}
		parts = append(parts, f...)
	}
	return parts, "", true, nil
}

// dquoteWordPart expands one part of the word of ${x:-word} read inside
// double quotes.
func (cfg *Config) dquoteWordPart(wp syntax.WordPart) ([]fieldPart, error) {
	switch wp := wp.(type) {
	case *syntax.SglQuoted:
		inner := wp.Value
		if doc, perr := syntax.NewParser().Document(strings.NewReader(inner)); perr == nil && doc != nil {
			f, err := cfg.wordField(doc.Parts, quoteHeredoc)
			if err != nil {
				return nil, err
			}
			inner = cfg.fieldJoin(f)
		}
		return []fieldPart{{val: "'" + inner + "'", quote: quoteDouble}}, nil
	case *syntax.Lit:
		v := strings.ReplaceAll(wp.Value, `\}`, "}")
		return cfg.wordField([]syntax.WordPart{&syntax.Lit{Value: v}}, quoteDouble)
	}
	return cfg.wordField([]syntax.WordPart{wp}, quoteDouble)
}

// quoteQ is ${x@Q}: the value in single quotes, or in $'...' when it
// holds control characters, as bash quotes it (upstream quoted as little
// as possible, so ${x@Q} of x was x rather than 'x').
func quoteQ(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return dollarQuote(s)
		}
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func dollarQuote(s string) string {
	var sb strings.Builder
	sb.WriteString("$'")
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case '\n':
			sb.WriteString(`\n`)
		case '\t':
			sb.WriteString(`\t`)
		case '\r':
			sb.WriteString(`\r`)
		case 0x1b:
			sb.WriteString(`\E`)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&sb, `\%03o`, c)
			} else {
				sb.WriteByte(c)
			}
		}
	}
	sb.WriteByte('\'')
	return sb.String()
}

// elemOps applies an operator of ${a[@]@X} to each element: Q, E, U, u,
// L and a act per element in bash (upstream applied them to the joined
// string).
func (cfg *Config) elemOps(op string, elems []string, vr Variable) []string {
	out := make([]string, len(elems))
	for i, e := range elems {
		switch op {
		case "Q":
			out[i] = quoteQ(e)
		case "U":
			out[i] = strings.ToUpper(e)
		case "L":
			out[i] = strings.ToLower(e)
		case "u":
			rs := []rune(e)
			if len(rs) > 0 {
				rs[0] = unicode.ToUpper(rs[0])
			}
			out[i] = string(rs)
		case "a":
			out[i] = vr.Flags()
		case "E":
			out[i], _, _ = Format(cfg, e, nil)
		default:
			out[i] = e
		}
	}
	return out
}

// unquotedListOps returns the elements of an unquoted list expansion with
// an operator that applies element by element (${a[@]#x}, ${a[@]/x/y},
// ${a[@]^^}, ${a[@]@Q}...).
func (cfg *Config) unquotedListOps(pe *syntax.ParamExp) ([]string, bool, error) {
	if pe.Excl || pe.Length || pe.Width || pe.IsSet || (pe.Repl == nil && pe.Exp == nil) {
		return nil, false, nil
	}
	if pe.Exp != nil {
		switch pe.Exp.Op {
		case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix,
			syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll, syntax.OtherParamOps:
		default:
			return nil, false, nil
		}
	}
	elems, _, ok := cfg.listElems(pe)
	if !ok {
		return nil, false, nil
	}
	elems, err := cfg.perElemOps(pe, elems)
	return elems, true, err
}

// indirectElem expands ${!ref} where ref holds an element reference like
// A[k] or a[1+1]: the text is parsed as ${A[k]} and expanded.
func (cfg *Config) indirectElem(ref string) (string, error) {
	name, _, _ := strings.Cut(ref, "[")
	if !syntax.ValidName(name) {
		return "", fmt.Errorf("%s: invalid variable name", ref)
	}
	w, err := syntax.NewParser().Document(strings.NewReader("${" + ref + "}"))
	if err != nil || w == nil || len(w.Parts) != 1 {
		return "", fmt.Errorf("%s: bad substitution", ref)
	}
	pe, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok {
		return "", fmt.Errorf("%s: bad substitution", ref)
	}
	return cfg.paramExp(pe)
}

// indirectOp turns ${!ref OP} (an operator after an indirection) into
// ${TARGET OP}, TARGET being what ref holds (a name or an element).
func (cfg *Config) indirectOp(pe *syntax.ParamExp) (*syntax.ParamExp, bool, error) {
	if !pe.Excl || pe.Names != 0 || (pe.Exp == nil && pe.Repl == nil && pe.Slice == nil) {
		return nil, false, nil
	}
	if lit := nodeLit(pe.Index); lit == "@" || lit == "*" {
		return nil, false, nil
	}
	ref := *pe
	ref.Excl, ref.Exp, ref.Repl, ref.Slice = false, nil, nil, nil
	name, err := cfg.paramExp(&ref)
	if err != nil {
		return nil, true, err
	}
	base, _, _ := strings.Cut(name, "[")
	if !syntax.ValidName(base) && base != "@" && base != "*" && !isDigitsName(base) {
		return nil, true, fmt.Errorf("%s: invalid indirect expansion", pe.Param.Value)
	}
	w, perr := syntax.NewParser().Document(strings.NewReader("${" + name + "}"))
	if perr != nil || w == nil || len(w.Parts) != 1 {
		return nil, true, fmt.Errorf("%s: bad substitution", name)
	}
	target, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok {
		return nil, true, fmt.Errorf("%s: bad substitution", name)
	}
	target.Exp, target.Repl, target.Slice = pe.Exp, pe.Repl, pe.Slice
	return target, true, nil
}

func isDigitsName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// joinLeadingLits merges the literal parts a word starts with (brace
// expansion leaves ~ and /src as two), so a tilde prefix is seen whole.
func joinLeadingLits(wps []syntax.WordPart) []syntax.WordPart {
	n := 0
	for n < len(wps) {
		if _, ok := wps[n].(*syntax.Lit); !ok {
			break
		}
		n++
	}
	if n < 2 {
		return wps
	}
	var sb strings.Builder
	for _, wp := range wps[:n] {
		sb.WriteString(wp.(*syntax.Lit).Value)
	}
	first := *wps[0].(*syntax.Lit)
	first.Value = sb.String()
	return append([]syntax.WordPart{&first}, wps[n:]...)
}
