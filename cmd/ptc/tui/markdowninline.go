package tui

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// mark is a set of styles a run of text is shown in.
type mark uint16

const (
	markBold mark = 1 << iota
	markItalic
	markUnderline
	markStrike
	markFaint
	markHeading   // the heading colour
	markCode      // a code span
	markCodeBlock // a line of a code block
	markLink      // a link's text
)

// markStyles is how each mark shows: its termenv attribute or colour
// (256-colour numbers, degraded by the profile).
var markStyles = []struct {
	m     mark
	apply func(md *markdown, st termenv.Style) termenv.Style
}{
	{markBold, func(_ *markdown, st termenv.Style) termenv.Style { return st.Bold() }},
	{markItalic, func(_ *markdown, st termenv.Style) termenv.Style { return st.Italic() }},
	{markUnderline, func(_ *markdown, st termenv.Style) termenv.Style { return st.Underline() }},
	{markStrike, func(_ *markdown, st termenv.Style) termenv.Style { return st.CrossOut() }},
	{markFaint, func(_ *markdown, st termenv.Style) termenv.Style { return st.Faint() }},
	{markHeading, func(md *markdown, st termenv.Style) termenv.Style { return st.Foreground(md.profile.Color("39")) }},
	{markCode, func(md *markdown, st termenv.Style) termenv.Style { return st.Foreground(md.profile.Color("215")) }},
	{markCodeBlock, func(md *markdown, st termenv.Style) termenv.Style { return st.Foreground(md.profile.Color("250")) }},
	{markLink, func(md *markdown, st termenv.Style) termenv.Style {
		return st.Foreground(md.profile.Color("75")).Underline()
	}},
}

// span is a run of inline text in one set of styles; its text is plain
// (no control characters), "\n" alone being a hard line break.
type span struct {
	text string
	m    mark
}

// spans is n's inline content as styled runs, every run also carrying
// base.
func (md *markdown) spans(n ast.Node, base mark) []span {
	var out []span
	md.collect(n, base, &out)
	return out
}

// collect appends the runs of n's inline children to out.
func (md *markdown) collect(n ast.Node, m mark, out *[]span) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			md.text(c, m, out)
		case *ast.String:
			addSpan(out, string(c.Value), m)
		case *ast.CodeSpan:
			addSpan(out, strings.ReplaceAll(md.plain(c), "\n", " "), m|markCode)
		case *ast.Emphasis:
			md.collect(c, m|emphasis(c.Level), out)
		case *ast.Link:
			md.link(c, string(c.Destination), m, out)
		case *ast.Image:
			md.link(c, string(c.Destination), m|markItalic, out)
		case *ast.AutoLink:
			addSpan(out, string(c.Label(md.src)), m|markLink)
		case *ast.RawHTML:
			md.rawHTML(c, m, out)
		case *east.Strikethrough:
			md.collect(c, m|markStrike, out)
		case *east.TaskCheckBox:
			addSpan(out, checkbox(c.IsChecked), m)
		default:
			md.collect(c, m, out)
		}
	}
}

// text appends a text node: its escapes and character references
// resolved (unless it is raw, as in a code span), then its line break.
func (md *markdown) text(t *ast.Text, m mark, out *[]span) {
	v := t.Segment.Value(md.src)
	if !t.IsRaw() {
		v = util.UnescapePunctuations(util.ResolveNumericReferences(util.ResolveEntityNames(v)))
	}
	addSpan(out, string(v), m)
	switch {
	case t.HardLineBreak():
		*out = append(*out, span{"\n", m})
	case t.SoftLineBreak():
		addSpan(out, " ", m)
	}
}

// link appends a link's (or image's) text in the link style and, when
// it is not the text already, its destination after it in brackets.
func (md *markdown) link(n ast.Node, dest string, m mark, out *[]span) {
	start := len(*out)
	md.collect(n, m|markLink, out)
	label := ""
	for _, s := range (*out)[start:] {
		label += s.text
	}
	if dest != "" && dest != label {
		addSpan(out, " ("+dest+")", m|markFaint)
	}
}

// rawHTML appends inline HTML as the plain text it is.
func (md *markdown) rawHTML(n *ast.RawHTML, m mark, out *[]span) {
	for i := range n.Segments.Len() {
		s := n.Segments.At(i)
		addSpan(out, string(s.Value(md.src)), m)
	}
}

// plain is the text of n's children, verbatim.
func (md *markdown) plain(n ast.Node) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Segment.Value(md.src))
		}
	}
	return b.String()
}

func emphasis(level int) mark {
	if level >= 2 {
		return markBold
	}
	return markItalic
}

func checkbox(checked bool) string {
	if checked {
		return "[x] "
	}
	return "[ ] "
}

// addSpan appends text in m, cleaned, joining it to the last run when
// that has the same styles.
func addSpan(out *[]span, text string, m mark) {
	text = strings.ReplaceAll(clean(text), "\t", " ")
	if text == "" {
		return
	}
	if n := len(*out); n > 0 && (*out)[n-1].m == m && (*out)[n-1].text != "\n" {
		(*out)[n-1].text += text
		return
	}
	*out = append(*out, span{text, m})
}

// clean takes control characters out of s, tabs and line feeds aside.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && r != '\t' && r != '\n' {
			return -1
		}
		return r
	}, s)
}

// wrapSpans lays runs out in lines at most width columns wide, breaking
// at spaces (a word longer than a line is broken where it reaches the
// edge) and at hard line breaks. Spaces at the breaks are dropped.
func wrapSpans(spans []span, width int) [][]span {
	w := wrapper{width: max(width, 1)}
	for _, s := range spans {
		if s.text == "\n" {
			w.flushWord()
			w.breakLine()
			continue
		}
		w.add(s)
	}
	w.flushWord()
	if len(w.line) > 0 || len(w.lines) == 0 {
		w.breakLine()
	}
	return w.lines
}

// wrapper is wrapSpans' state: the lines done, the line being filled,
// the word being read and the space before it.
type wrapper struct {
	width      int
	lines      [][]span
	line       []span
	lineWidth  int
	word       []span
	wordWidth  int
	space      *span
	spaceWidth int
}

// add reads one run, word by word.
func (w *wrapper) add(s span) {
	for s.text != "" {
		i := strings.IndexByte(s.text, ' ')
		switch {
		case i < 0:
			w.addWord(span{s.text, s.m})
			return
		case i > 0:
			w.addWord(span{s.text[:i], s.m})
		}
		w.flushWord()
		if w.space == nil && w.lineWidth > 0 {
			w.space, w.spaceWidth = &span{" ", s.m}, 1
		}
		s.text = s.text[i+1:]
	}
}

func (w *wrapper) addWord(s span) {
	w.word = append(w.word, s)
	w.wordWidth += ansi.StringWidth(s.text)
}

// flushWord puts the word read so far on the line, or on a new line when
// it does not fit, breaking it when no line holds it.
func (w *wrapper) flushWord() {
	if len(w.word) == 0 {
		return
	}
	if w.lineWidth > 0 && w.lineWidth+w.spaceWidth+w.wordWidth > w.width {
		w.breakLine()
	}
	if w.space != nil && w.lineWidth > 0 {
		w.put(*w.space, w.spaceWidth)
	}
	for _, s := range w.word {
		w.putBroken(s)
	}
	w.word, w.wordWidth, w.space, w.spaceWidth = nil, 0, nil, 0
}

// putBroken puts s on the line, going on to new lines where it reaches
// the edge.
func (w *wrapper) putBroken(s span) {
	var b strings.Builder
	bw := 0
	for _, r := range s.text {
		rw := ansi.StringWidth(string(r))
		if w.lineWidth+bw+rw > w.width && w.lineWidth+bw > 0 {
			w.put(span{b.String(), s.m}, bw)
			w.breakLine()
			b.Reset()
			bw = 0
		}
		b.WriteRune(r)
		bw += rw
	}
	w.put(span{b.String(), s.m}, bw)
}

// put appends a run to the line, joined to the last run in the same
// styles.
func (w *wrapper) put(s span, width int) {
	if s.text == "" {
		return
	}
	if n := len(w.line); n > 0 && w.line[n-1].m == s.m {
		w.line[n-1].text += s.text
	} else {
		w.line = append(w.line, s)
	}
	w.lineWidth += width
}

// breakLine ends the line being filled.
func (w *wrapper) breakLine() {
	w.lines = append(w.lines, w.line)
	w.line, w.lineWidth, w.space, w.spaceWidth = nil, 0, nil, 0
}

// paintLine renders one line of runs in their styles.
func (md *markdown) paintLine(line []span) string {
	var b strings.Builder
	for _, s := range line {
		b.WriteString(md.paint(s.text, s.m))
	}
	return b.String()
}

// paint renders text in the styles of m for the colour profile; with no
// colours (termenv.Ascii) the text is left as it is.
func (md *markdown) paint(text string, m mark) string {
	if m == 0 || md.profile == termenv.Ascii {
		return text
	}
	st := md.profile.String(text)
	for _, f := range markStyles {
		if m&f.m != 0 {
			st = f.apply(md, st)
		}
	}
	return st.String()
}
