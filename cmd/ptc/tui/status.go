package tui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/internal/termsafe"
)

// cmdStatus shows the session's settings in force: what runs where, and
// under which rules.
func (m *Model) cmdStatus(string) tea.Cmd {
	st, md := m.be.Settings(), m.be.Model()
	var b strings.Builder
	line := func(k, v string) { fmt.Fprintf(&b, "%-10s %s\n", k, termsafe.Line(v)) }
	line("session", m.be.ID())
	line("workspace", st.Workspace)
	model := st.Model
	if st.BaseURL != "" {
		model += " at " + st.BaseURL
	}
	line("model", fmt.Sprintf("%s (window %d tokens)", model, md.ContextWindow))
	line("preset", st.Preset)
	sandbox := st.Sandbox
	if st.Network {
		sandbox += ", network on"
	}
	line("sandbox", sandbox)
	line("approval", st.Approval)
	steps := "the preset's"
	if st.MaxSteps > 0 {
		steps = fmt.Sprint(st.MaxSteps)
	}
	line("max steps", steps)
	plan := "off"
	if m.be.PlanMode() {
		plan = "on"
	}
	line("plan mode", plan)
	if g, ok := m.be.Goal(); ok {
		line("goal", termsafe.Clip(g.Objective, 80)+" ("+g.Status+")")
	}
	if rb, ok := m.be.(RewindBackend); ok {
		if h, _, err := rb.History(context.Background()); err == nil {
			n := 0
			for _, t := range h.Changed() {
				n += len(t.Files)
			}
			line("changes", fmt.Sprintf("%d file change(s) in %d turn(s) (/diff, /rewind)", n, len(h.Changed())))
		}
	}
	m.tr.notice(toneInfo, strings.TrimRight(b.String(), "\n"))
	return nil
}
