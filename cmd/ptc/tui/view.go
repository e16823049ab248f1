package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/ptc-dev/ptc/internal/termsafe"
)

// View draws the screen: the conversation, then the completion popup,
// the input (or a dialog in its place) and the status line.
func (m *Model) View() string {
	if m.quit {
		return ""
	}
	parts := []string{m.vp.View()}
	if p := m.popupView(); p != "" {
		parts = append(parts, p)
	}
	parts = append(parts, m.inputView(), m.statusLine())
	return strings.Join(parts, "\n")
}

// bottomHeight is the rows below the conversation.
func (m *Model) bottomHeight() int {
	h := lipgloss.Height(m.inputView()) + 1
	if p := m.popupView(); p != "" {
		h += lipgloss.Height(p)
	}
	return h
}

func (m *Model) inputView() string {
	switch {
	case len(m.asks) > 0:
		return m.dialogView()
	case m.picker != nil:
		return m.pickerView()
	}
	rule := m.th.dim.Render(strings.Repeat("─", max(m.width, 1)))
	return rule + "\n" + m.in.View()
}

func (m *Model) popupView() string {
	if len(m.popup) == 0 || len(m.asks) > 0 || m.picker != nil {
		return ""
	}
	var lines []string
	for i, p := range m.popup {
		line := " " + termsafe.Line(p) + " "
		if i == m.popupSel {
			line = m.th.popupSel.Render(line)
		}
		lines = append(lines, line)
	}
	lines = append(lines, m.th.dim.Render(" tab completes · esc closes"))
	return strings.Join(lines, "\n")
}

// statusLine is model · preset · sandbox · tokens in/out with the cache
// share · cost · context use, then plan mode, goal and children when
// active, and on the right what is going on. When the line is too narrow,
// the least important parts go first (preset, cache share, model).
func (m *Model) statusLine() string {
	s := m.be.Settings()
	model := m.be.Model()
	u := m.tr.usage
	cost := "cost n/a"
	if usd, ok := u.cost(model); ok {
		cost = dollars(usd)
	}
	type part struct {
		text string
		drop int // 0: kept longest
	}
	parts := []part{
		{termsafe.Clip(shortModel(s.Model), 32), 3}, {termsafe.Line(s.Preset), 5}, {termsafe.Line(s.Sandbox), 2},
		{fmt.Sprintf("↑%s ↓%s", kilo(u.All.InputTokens), kilo(u.All.OutputTokens)), 0},
		{fmt.Sprintf("%d%% cached", u.cacheShare()), 4}, {cost, 0}, {contextUse(m.tr.meter, model), 1},
	}
	if m.tr.ext.planMode {
		parts = append(parts, part{"PLAN", 0})
	}
	if g := m.tr.ext.goal; g != "" {
		parts = append(parts, part{"goal: " + g, 1})
	}
	if n := len(m.tr.ext.children); n > 0 {
		parts = append(parts, part{fmt.Sprintf("%d child session(s)", n), 1})
	}
	if n := len(m.tr.ext.jobs); n > 0 {
		parts = append(parts, part{fmt.Sprintf("%d job(s) running", n), 1})
	}
	right := m.stateText()
	join := func(level int) string {
		var kept []string
		for _, p := range parts {
			if p.drop == 0 || p.drop < level {
				kept = append(kept, p.text)
			}
		}
		return " " + strings.Join(kept, " · ")
	}
	l := join(6)
	for level := 5; level > 0 && ansi.StringWidth(l)+ansi.StringWidth(right)+1 > m.width; level-- {
		l = join(level)
	}
	l = ansi.Truncate(l, max(m.width-ansi.StringWidth(right)-1, 0), "…")
	pad := max(m.width-ansi.StringWidth(l)-ansi.StringWidth(right), 0)
	return m.th.status.Render(l+strings.Repeat(" ", pad)) + m.th.statusHint.Render(right)
}

// stateText says what runs and what the keys do now.
func (m *Model) stateText() string {
	now := m.cfg.Now()
	switch {
	case len(m.asks) > 0:
		return "waiting for your answer "
	case m.cancelling:
		return "cancelling… · ctrl+c exits "
	case m.running:
		return "⋯ " + formatMs(now.Sub(m.runStart).Milliseconds()) + " · ctrl+c cancels "
	case m.busy != "":
		return m.busy + "… "
	case m.armedExit:
		return "ctrl+c again exits "
	}
	return ""
}

// shortModel shows a script model by its file name.
func shortModel(s string) string {
	if rest, ok := strings.CutPrefix(s, "script:"); ok {
		if i := strings.LastIndexByte(rest, '/'); i >= 0 {
			return "script:" + rest[i+1:]
		}
	}
	return s
}
