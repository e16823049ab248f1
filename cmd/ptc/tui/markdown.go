package tui

import (
	"strings"

	"github.com/muesli/termenv"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// markdown renders the model's answers (and plans) for the terminal: the
// source is parsed by goldmark (CommonMark with GFM tables, strikethrough
// and task lists) and each block is laid out here, word-wrapped to a
// width and styled for one colour profile (termenv.Ascii: plain text).
// Headings show by weight and colour, never as a raw "##"; code is shown
// verbatim, without syntax highlighting.
type markdown struct {
	profile termenv.Profile
	parser  parser.Parser
	src     []byte // the text being rendered, for the nodes' segments
}

func newMarkdown(profile termenv.Profile) *markdown {
	gm := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))
	return &markdown{profile: profile, parser: gm.Parser()}
}

// render returns source rendered for width columns (at least 20); should
// rendering fail, source itself (it is sanitised already).
func (md *markdown) render(source string, width int) (out string) {
	defer func() {
		if recover() != nil {
			out = source
		}
	}()
	width = max(width, 20)
	md.src = []byte(source)
	defer func() { md.src = nil }()
	doc := md.parser.Parse(text.NewReader(md.src))
	return strings.Join(md.blocks(doc, width, false), "\n")
}

// blocks renders n's child blocks one under another, with a blank line
// between two unless tight (the items of a tight list).
func (md *markdown) blocks(n ast.Node, width int, tight bool) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := md.block(c, width)
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

// block renders one block node as lines at most width columns wide.
func (md *markdown) block(n ast.Node, width int) []string {
	switch n := n.(type) {
	case *ast.Heading:
		return md.heading(n, width)
	case *ast.Paragraph, *ast.TextBlock:
		return md.inline(n, width, 0)
	case *ast.ThematicBreak:
		return []string{md.paint(strings.Repeat("─", width), markFaint)}
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		return md.code(n, width)
	case *ast.HTMLBlock:
		return md.html(n, width)
	case *ast.Blockquote:
		return md.quote(n, width)
	case *ast.List:
		return md.list(n, width)
	case *east.Table:
		return md.table(n, width)
	}
	return md.blocks(n, width, false)
}

// inline renders n's inline content as one wrapped paragraph, every span
// also carrying base.
func (md *markdown) inline(n ast.Node, width int, base mark) []string {
	var out []string
	for _, line := range wrapSpans(md.spans(n, base), width) {
		out = append(out, md.paintLine(line))
	}
	return out
}
