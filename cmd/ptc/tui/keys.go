package tui

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// key handles one key press. The order matters: a question or a picker
// takes the keyboard first, then ctrl+c/ctrl+d, then completion, history
// and submission; anything else edits the input.
func (m *Model) key(k tea.KeyMsg) tea.Cmd {
	if k.Type != tea.KeyCtrlC {
		m.armedExit = false
	}
	switch k.Type {
	case tea.KeyCtrlC:
		return m.interrupt()
	case tea.KeyCtrlD:
		if m.in.Value() == "" && len(m.asks) == 0 {
			return m.exit()
		}
	case tea.KeyCtrlO:
		m.rnd.expandTools = !m.rnd.expandTools
		return nil
	case tea.KeyCtrlR:
		if len(m.asks) == 0 && m.picker == nil {
			m.searchHistory()
			return nil
		}
	case tea.KeyCtrlT:
		m.rnd.showReasoning = !m.rnd.showReasoning
		return nil
	case tea.KeyPgUp, tea.KeyPgDown:
		var cmd tea.Cmd
		m.vp, cmd = m.vp.Update(k)
		return cmd
	}
	if len(m.asks) > 0 {
		return m.askKey(k)
	}
	if m.picker != nil {
		return m.pickerKey(k)
	}
	if len(m.popup) > 0 {
		switch k.Type {
		case tea.KeyTab, tea.KeyEnter:
			m.accept()
			if k.Type == tea.KeyEnter && strings.HasPrefix(m.in.Value(), "/") && !strings.Contains(strings.TrimSpace(m.in.Value()), " ") {
				return m.submit()
			}
			return nil
		case tea.KeyUp:
			m.popupSel = (m.popupSel + len(m.popup) - 1) % len(m.popup)
			return nil
		case tea.KeyDown:
			m.popupSel = (m.popupSel + 1) % len(m.popup)
			return nil
		case tea.KeyEsc:
			m.popup = nil
			return nil
		}
	}
	switch k.Type {
	case tea.KeyEnter:
		if !k.Paste && !k.Alt { // alt+enter is the input's new line
			return m.submit()
		}
	case tea.KeyEsc:
		if m.running || m.busy != "" {
			return m.cancelTurn() // every peer's interrupt key
		}
	case tea.KeyUp:
		if m.in.Line() == 0 || m.hist.browsing(m.in.Value()) {
			if s, ok := m.hist.prev(m.in.Value()); ok {
				m.edit(func() { m.in.SetValue(s) })
				return nil
			}
		}
	case tea.KeyDown:
		if m.in.Line() == m.in.LineCount()-1 || m.hist.browsing(m.in.Value()) {
			if s, ok := m.hist.next(); ok {
				m.edit(func() { m.in.SetValue(s) })
				return nil
			}
		}
	}
	var cmd tea.Cmd
	m.edit(func() { m.in, cmd = m.in.Update(k) })
	return tea.Batch(cmd, m.complete())
}

// interrupt is ctrl+c: it cancels the running turn (or compaction); when
// nothing runs, the first press clears the input and the second exits.
func (m *Model) interrupt() tea.Cmd {
	if m.running || m.busy != "" {
		if m.cancelling || m.armed() {
			return m.exit()
		}
		return m.cancelTurn()
	}
	if m.armed() {
		return m.exit()
	}
	m.in.Reset()
	m.popup = nil
	return m.arm()
}

// cancelTurn cancels the running turn (ctrl+c, esc); a ctrl+c while it
// winds down exits.
func (m *Model) cancelTurn() tea.Cmd {
	if m.cancelling || !m.be.Cancel() {
		return nil
	}
	m.cancelling = true
	m.tr.notice(toneWarn, "cancelling… (ctrl+c again exits)")
	return m.arm()
}

// exitArmed is how long a ctrl+c keeps the next one exiting.
const exitArmed = 3 * time.Second

// arm makes the next ctrl+c exit, for exitArmed or until another key.
func (m *Model) arm() tea.Cmd {
	m.armedExit, m.armedAt = true, m.cfg.Now()
	return tea.Tick(exitArmed, func(time.Time) tea.Msg { return disarmMsg{} })
}

// armed reports whether a ctrl+c now exits.
func (m *Model) armed() bool {
	return m.armedExit && m.cfg.Now().Sub(m.armedAt) < exitArmed
}

func (m *Model) exit() tea.Cmd {
	m.quit = true
	for len(m.asks) > 0 {
		m.answer("", tools.ErrNoAnswerer)
	}
	m.be.Cancel()
	return tea.Quit
}

// submit handles Enter: a slash command runs here and never reaches the
// model; other text starts a turn.
func (m *Model) submit() tea.Cmd {
	raw := m.in.Value()
	text := strings.TrimSpace(raw)
	if text == "" {
		return nil
	}
	m.popup = nil
	if name, arg, ok := parseCommand(text); ok {
		cmd, found := lookupCommand(name)
		prompt, custom := "", false
		if !found {
			prompt, custom = m.customCommand(name, arg)
		}
		switch {
		case custom:
			text = prompt // a custom command is a prompt: sent below
		case !found:
			m.tr.notice(toneWarn, "unknown command /"+name+"; /help lists the commands (start the line with // to send text beginning with /)")
			m.in.Reset()
			return nil
		case (m.running || m.busy != "") && !cmd.whileRunning:
			m.tr.notice(toneWarn, "/"+cmd.name+" waits until the turn ends (ctrl+c cancels it)")
			return nil
		default:
			m.hist.add(raw)
			m.in.Reset()
			return cmd.run(m, arg)
		}
	} else if strings.HasPrefix(text, "//") {
		text = text[1:] // "//text" sends "/text"
	} else if cmdline, ok := strings.CutPrefix(text, "!"); ok && strings.TrimSpace(cmdline) != "" && !m.running && m.busy == "" {
		m.hist.add(raw)
		m.in.Reset()
		return m.bang(strings.TrimSpace(cmdline))
	}
	if m.busy != "" {
		// A compaction or settings change holds the session: the text
		// stays in the input until it is done.
		m.tr.notice(toneWarn, m.busy+"… — send this when it is done (it stays in the input)")
		return nil
	}
	m.hist.add(raw)
	m.in.Reset()
	if m.running {
		// Typed while a turn runs: the session's next turn.
		m.queue(text)
		return nil
	}
	return m.startTurn(text)
}

// complete offers completions for the word being typed: slash commands at
// the start of the input, workspace paths after @.
func (m *Model) complete() tea.Cmd {
	v := m.in.Value()
	m.popup, m.popupSel = nil, 0
	if strings.HasPrefix(v, "/") && !strings.ContainsAny(v, " \n") {
		for _, c := range commandList() {
			if strings.HasPrefix("/"+c.name, v) && "/"+c.name != v {
				m.popup = append(m.popup, "/"+c.name)
			}
		}
		m.popup = append(m.popup, m.customCompletions(v)...)
		return nil
	}
	w := lastWord(v)
	if !strings.HasPrefix(w, "@") {
		return nil
	}
	if m.index == nil {
		if m.indexing {
			return nil
		}
		m.indexing = true
		ws := m.be.Settings().Workspace
		return func() tea.Msg { return indexedMsg(indexWorkspace(ws)) }
	}
	for _, p := range suggest(m.index, w[1:]) {
		if p != w[1:] {
			m.popup = append(m.popup, "@"+p)
		}
	}
	return nil
}

// accept puts the selected completion in place of the word being typed.
func (m *Model) accept() {
	if len(m.popup) == 0 {
		return
	}
	choice := m.popup[m.popupSel]
	v := m.in.Value()
	v = v[:len(v)-len(lastWord(v))] + choice
	if !strings.HasSuffix(choice, "/") {
		v += " "
	}
	m.edit(func() { m.in.SetValue(v) })
	m.popup = nil
	if strings.HasSuffix(choice, "/") {
		m.complete()
	}
}

// searchHistory is ctrl+r: the input's text (or, while a match is
// shown, the text first searched for) finds the next older history
// entry holding it; again steps further back.
func (m *Model) searchHistory() {
	cur := m.in.Value()
	if !m.hist.browsing(cur) || m.query == "" {
		m.query = cur
	}
	if s, ok := m.hist.search(m.query, cur); ok {
		m.edit(func() { m.in.SetValue(s) })
		return
	}
	m.tr.notice(toneInfo, "no earlier prompt holds "+termsafe.Clip(m.query, 60))
}
