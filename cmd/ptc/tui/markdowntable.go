package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	east "github.com/yuin/goldmark/extension/ast"
)

// columnGap is what stands between two table columns.
const columnGap = " │ "

// table renders a GFM table as aligned columns: the header in bold over
// a rule, the columns as wide as their widest cell, and, when that is
// wider than width, the widest columns narrowed and their cells wrapped.
func (md *markdown) table(t *east.Table, width int) []string {
	var rows [][][]span
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		base := mark(0)
		if _, ok := r.(*east.TableHeader); ok {
			base = markBold
		}
		var cells [][]span
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, md.spans(c, base))
		}
		rows = append(rows, cells)
	}
	widths := naturalWidths(rows)
	widths = fitColumns(widths, width-ansi.StringWidth(columnGap)*(len(widths)-1))
	var out []string
	for i, cells := range rows {
		out = append(out, md.tableRow(cells, widths, t.Alignments)...)
		if i == 0 {
			out = append(out, md.tableRule(widths))
		}
	}
	return out
}

// naturalWidths is, for each column, the width of its widest cell on one
// line (at least 1).
func naturalWidths(rows [][][]span) []int {
	var widths []int
	for _, cells := range rows {
		for i, c := range cells {
			if i == len(widths) {
				widths = append(widths, 1)
			}
			w := 0
			for _, s := range c {
				w += ansi.StringWidth(s.text)
			}
			widths[i] = max(widths[i], w)
		}
	}
	return widths
}

// fitColumns narrows the widest of widths, a column at a time, until
// they add up to at most avail or every column is down to 1.
func fitColumns(widths []int, avail int) []int {
	total := 0
	for _, w := range widths {
		total += w
	}
	for total > avail {
		widest := 0
		for i, w := range widths {
			if w > widths[widest] {
				widest = i
			}
		}
		if widths[widest] <= 1 {
			break
		}
		widths[widest]--
		total--
	}
	return widths
}

// tableRow renders one row: each cell wrapped to its column, aligned in
// it, the row as many lines high as its tallest cell.
func (md *markdown) tableRow(cells [][]span, widths []int, aligns []east.Alignment) []string {
	wrapped := make([][][]span, len(widths))
	height := 1
	for i := range widths {
		if i < len(cells) {
			wrapped[i] = wrapSpans(cells[i], widths[i])
		}
		height = max(height, len(wrapped[i]))
	}
	out := make([]string, height)
	for l := range height {
		parts := make([]string, len(widths))
		for i, w := range widths {
			var line []span
			if l < len(wrapped[i]) {
				line = wrapped[i][l]
			}
			parts[i] = md.alignCell(line, w, alignOf(aligns, i))
		}
		out[l] = strings.TrimRight(strings.Join(parts, md.paint(columnGap, markFaint)), " ")
	}
	return out
}

func alignOf(aligns []east.Alignment, i int) east.Alignment {
	if i < len(aligns) {
		return aligns[i]
	}
	return east.AlignNone
}

// alignCell pads one line of a cell to width as its column is aligned.
func (md *markdown) alignCell(line []span, width int, align east.Alignment) string {
	w := 0
	for _, s := range line {
		w += ansi.StringWidth(s.text)
	}
	gap := max(width-w, 0)
	left := 0
	switch align {
	case east.AlignRight:
		left = gap
	case east.AlignCenter:
		left = gap / 2
	}
	return strings.Repeat(" ", left) + md.paintLine(line) + strings.Repeat(" ", gap-left)
}

// tableRule is the rule under the header, crossing the column gaps.
func (md *markdown) tableRule(widths []int) string {
	parts := make([]string, len(widths))
	for i, w := range widths {
		parts[i] = strings.Repeat("─", w)
	}
	return md.paint(strings.Join(parts, "─┼─"), markFaint)
}
