package tui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/sandbox"
)

// ShellBackend is the part of a Backend that runs "!cmd": a command in
// the session's sandbox, shown without a model call. A Backend without
// it (a remote session) has no "!".
type ShellBackend interface {
	Shell(ctx context.Context, command string) (sandbox.Outcome, error)
}

// shellDoneMsg is a "!cmd" that ended.
type shellDoneMsg struct {
	command string
	out     sandbox.Outcome
	err     error
}

// maxBangLines bounds the output a "!cmd" shows.
const maxBangLines = 40

// bang runs "!cmd" in the background; the output comes back as a notice.
func (m *Model) bang(command string) tea.Cmd {
	sb, ok := m.be.(ShellBackend)
	if !ok {
		m.tr.notice(toneWarn, "!command runs only in a local session")
		return nil
	}
	return m.background("running !"+termsafe.Clip(command, 40), func() tea.Msg {
		out, err := sb.Shell(context.Background(), command)
		return shellDoneMsg{command: command, out: out, err: err}
	})
}

// shellDone shows what a "!cmd" printed and how it exited.
func (m *Model) shellDone(msg shellDoneMsg) {
	if msg.err != nil {
		m.tr.notice(toneError, "!"+termsafe.Line(msg.command)+": "+termsafe.String(msg.err.Error()))
		return
	}
	text := strings.TrimRight(string(msg.out.Stdout)+string(msg.out.Stderr), "\n")
	lines := []string{"$ " + termsafe.Line(msg.command)}
	if text != "" {
		all := strings.Split(text, "\n")
		if len(all) > maxBangLines {
			all = append(all[:maxBangLines], fmt.Sprintf("… %d more line(s)", len(all)-maxBangLines))
		}
		for _, l := range all {
			lines = append(lines, termsafe.Line(l))
		}
	}
	tone := toneInfo
	if msg.out.ExitCode != 0 {
		tone = toneWarn
		lines = append(lines, fmt.Sprintf("exit %d", msg.out.ExitCode))
	}
	if msg.out.Note != "" {
		lines = append(lines, termsafe.String(msg.out.Note))
	}
	m.tr.notice(tone, strings.Join(lines, "\n"))
}
