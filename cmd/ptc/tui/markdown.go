package tui

import (
	"strings"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/glamour/styles"
	"github.com/muesli/termenv"
)

// markdown renders answers with Glamour at one width. Its style is
// Glamour's dark style with the heading markers taken off (a heading is
// shown by colour and weight, never as a raw "##") and no page margin.
type markdown struct {
	width    int
	profile  termenv.Profile
	renderer *glamour.TermRenderer
}

func newMarkdown(profile termenv.Profile) *markdown { return &markdown{profile: profile} }

func answerStyle() ansi.StyleConfig {
	s := styles.DarkStyleConfig
	zero := uint(0)
	s.Document.Margin = &zero
	s.Document.BlockPrefix, s.Document.BlockSuffix = "", ""
	bold := true
	for _, h := range []*ansi.StyleBlock{&s.H2, &s.H3, &s.H4, &s.H5, &s.H6} {
		h.Prefix = ""
		h.Bold = &bold
	}
	return s
}

// render returns the text rendered for width columns; when Glamour cannot
// render it, the text itself (it is sanitised already).
func (md *markdown) render(text string, width int) string {
	width = max(width, 20)
	if md.renderer == nil || md.width != width {
		r, err := glamour.NewTermRenderer(
			glamour.WithStyles(answerStyle()),
			glamour.WithWordWrap(width),
			glamour.WithColorProfile(md.profile),
		)
		if err != nil {
			return text
		}
		md.renderer, md.width = r, width
	}
	out, err := md.renderer.Render(text)
	if err != nil {
		return text
	}
	return strings.Trim(out, "\n")
}
