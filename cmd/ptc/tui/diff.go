package tui

import "github.com/ptc-dev/ptc/internal/textdiff"

// diffLine is one line of a unified diff: kind ' ' (context), '-', '+',
// or '@' for a hunk header (text holds the header).
type diffLine struct {
	kind byte
	text string
}

// diffContext is the number of unchanged lines shown around a change.
const diffContext = 3

// unifiedDiff returns the hunks turning a into b, with diffContext lines
// of context, as `diff -u` shows them (without the file header). A
// rewrite beyond textdiff.DefaultMaxEdits shows as the old text removed
// and the new one added.
func unifiedDiff(a, b string) []diffLine {
	var out []diffLine
	for _, h := range textdiff.Unified(textdiff.Edits(textdiff.Lines(a), textdiff.Lines(b), textdiff.DefaultMaxEdits), diffContext) {
		out = append(out, diffLine{'@', h.Header()})
		for _, o := range h.Ops {
			out = append(out, diffLine{o.Kind, o.Text})
		}
	}
	return out
}
