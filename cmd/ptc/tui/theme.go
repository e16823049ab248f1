package tui

import (
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// theme holds the styles of every view, made by one renderer so the
// colour profile is decided once (tests use termenv.Ascii: no colours,
// stable golden screens).
type theme struct {
	user, accent, dim, reasoning, tool, ok, fail, warn, running lipgloss.Style
	added, removed, hunk, program, status, statusHint, dialog   lipgloss.Style
	popup, popupSel, title                                      lipgloss.Style
}

func newTheme(profile termenv.Profile) theme {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(profile)
	r.SetHasDarkBackground(true)
	c := func(s string) lipgloss.Color { return lipgloss.Color(s) }
	return theme{
		user:       r.NewStyle().Bold(true),
		accent:     r.NewStyle().Foreground(c("39")).Bold(true),
		dim:        r.NewStyle().Faint(true),
		reasoning:  r.NewStyle().Faint(true).Italic(true),
		tool:       r.NewStyle().Foreground(c("141")).Bold(true),
		ok:         r.NewStyle().Foreground(c("42")),
		fail:       r.NewStyle().Foreground(c("203")),
		warn:       r.NewStyle().Foreground(c("214")),
		running:    r.NewStyle().Foreground(c("39")),
		added:      r.NewStyle().Foreground(c("42")),
		removed:    r.NewStyle().Foreground(c("203")),
		hunk:       r.NewStyle().Foreground(c("75")).Faint(true),
		program:    r.NewStyle().Foreground(c("250")),
		status:     r.NewStyle().Foreground(c("250")).Background(c("236")),
		statusHint: r.NewStyle().Foreground(c("244")).Background(c("236")),
		dialog:     r.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(c("214")).Padding(0, 1),
		popup:      r.NewStyle().Border(lipgloss.NormalBorder()).BorderForeground(c("240")),
		popupSel:   r.NewStyle().Reverse(true),
		title:      r.NewStyle().Bold(true).Foreground(c("214")),
	}
}
