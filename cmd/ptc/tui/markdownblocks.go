package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
)

// heading renders a heading without its markers: level 1 bold, underlined
// and coloured, level 2 bold and coloured, deeper levels bold.
func (md *markdown) heading(h *ast.Heading, width int) []string {
	base := markBold
	switch h.Level {
	case 1:
		base |= markHeading | markUnderline
	case 2:
		base |= markHeading
	}
	return md.inline(h, width, base)
}

// code renders a code block verbatim, indented by two columns and in the
// code colour; tabs become spaces and a line too long for width goes on
// under itself rather than past the edge.
func (md *markdown) code(n ast.Node, width int) []string {
	lines := md.rawLines(n)
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	var out []string
	for _, l := range lines {
		for _, part := range strings.Split(ansi.Hardwrap(l, max(width-2, 1), true), "\n") {
			out = append(out, "  "+md.paint(part, markCodeBlock))
		}
	}
	return out
}

// html renders a block of raw HTML as the plain text it is, wrapped.
func (md *markdown) html(n *ast.HTMLBlock, width int) []string {
	lines := md.rawLines(n)
	if n.HasClosure() {
		lines = append(lines, expandTabs(clean(string(n.ClosureLine.Value(md.src)))))
	}
	var out []string
	for _, l := range lines {
		out = append(out, strings.Split(ansi.Hardwrap(strings.TrimRight(l, "\r\n"), width, true), "\n")...)
	}
	return out
}

// rawLines is a block's source lines without their line endings, tabs
// expanded and control characters taken out.
func (md *markdown) rawLines(n ast.Node) []string {
	segs := n.Lines()
	lines := make([]string, 0, segs.Len())
	for i := range segs.Len() {
		s := segs.At(i)
		lines = append(lines, expandTabs(clean(strings.TrimRight(string(s.Value(md.src)), "\r\n"))))
	}
	return lines
}

// quote renders a block quote's blocks behind a bar.
func (md *markdown) quote(n *ast.Blockquote, width int) []string {
	bar := md.paint("│", markFaint)
	lines := md.blocks(n, max(width-2, 1), false)
	for i, l := range lines {
		lines[i] = strings.TrimRight(bar+" "+l, " ")
	}
	return lines
}

// list renders a bullet or numbered list: each item's blocks behind its
// marker, the lines after an item's first indented to line up under its
// text; a loose list has a blank line between items.
func (md *markdown) list(l *ast.List, width int) []string {
	markers := listMarkers(l)
	indent := 0
	for _, m := range markers {
		indent = max(indent, ansi.StringWidth(m)+1)
	}
	var out []string
	i := 0
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		if i > 0 && !l.IsTight {
			out = append(out, "")
		}
		out = append(out, hang(markers[i], indent, md.blocks(item, max(width-indent, 1), l.IsTight))...)
		i++
	}
	return out
}

// bullets are the bullet list markers by depth, the deepest repeating.
var bullets = []string{"•", "◦", "▪"}

// listMarkers is the marker of each of l's items: its number for an
// ordered list, else the bullet for l's depth among lists.
func listMarkers(l *ast.List) []string {
	depth := 0
	for p := l.Parent(); p != nil; p = p.Parent() {
		if _, ok := p.(*ast.List); ok {
			depth++
		}
	}
	markers := make([]string, 0, l.ChildCount())
	for i := range l.ChildCount() {
		switch {
		case l.IsOrdered():
			markers = append(markers, strconv.Itoa(l.Start+i)+string(l.Marker))
		default:
			markers = append(markers, bullets[min(depth, len(bullets)-1)])
		}
	}
	return markers
}

// hang puts marker before the first of lines and indent spaces before
// the others (blank lines stay blank).
func hang(marker string, indent int, lines []string) []string {
	if len(lines) == 0 {
		return []string{marker}
	}
	pad := strings.Repeat(" ", indent)
	first := marker + strings.Repeat(" ", max(indent-ansi.StringWidth(marker), 1))
	out := make([]string, len(lines))
	for i, l := range lines {
		switch {
		case i == 0:
			out[i] = first + l
		case l == "":
			out[i] = ""
		default:
			out[i] = pad + l
		}
	}
	return out
}

// expandTabs replaces each tab by the spaces up to the next multiple of
// four columns.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col += ansi.StringWidth(string(r))
	}
	return b.String()
}
