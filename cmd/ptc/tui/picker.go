package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/runtime/session"
)

// picker is /resume without an id: the workspace's sessions to choose
// from, newest first.
type picker struct {
	list    []session.Summary
	current string
	sel     int
}

func newPicker(list []session.Summary, current string) *picker {
	return &picker{list: list, current: current}
}

// pickerVisible is how many sessions the picker shows at once.
const pickerVisible = 8

func (m *Model) pickerKey(k tea.KeyMsg) tea.Cmd {
	p := m.picker
	switch k.Type {
	case tea.KeyUp:
		p.sel = (p.sel + len(p.list) - 1) % len(p.list)
	case tea.KeyDown, tea.KeyTab:
		p.sel = (p.sel + 1) % len(p.list)
	case tea.KeyEsc:
		m.picker = nil
	case tea.KeyEnter:
		id := p.list[p.sel].Header.ID
		m.picker = nil
		if id == m.be.ID() {
			m.tr.notice(toneInfo, "that is the session you are in")
			return nil
		}
		return m.cmdResume(id)
	}
	return nil
}

func (m *Model) pickerView() string {
	p := m.picker
	lines := []string{m.th.title.Render("Resume a session of this workspace") + m.th.dim.Render("  ↑/↓ choose · enter opens · esc closes")}
	start := 0
	if p.sel >= pickerVisible {
		start = p.sel - pickerVisible + 1
	}
	for i := start; i < len(p.list) && i < start+pickerVisible; i++ {
		line := m.rnd.fitTo(sessionLine(p.list[i], p.current), max(m.width-4, 20))
		if i == p.sel {
			line = m.th.popupSel.Render(line)
		}
		lines = append(lines, line)
	}
	return m.th.dialog.Width(max(m.width-2, 20)).Render(strings.Join(lines, "\n"))
}
