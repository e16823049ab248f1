package tui

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// askKey answers the open approval or question.
func (m *Model) askKey(k tea.KeyMsg) tea.Cmd {
	q := m.asks[0].q
	if q.Kind == tools.KindPlan {
		return m.planKey(k)
	}
	if q.Kind == tools.KindApproval {
		if m.asks[0].pattern {
			return m.patternKey(k)
		}
		switch strings.ToLower(k.String()) {
		case "a", "y":
			m.answer(tools.AnswerAllowOnce, nil)
		case "s":
			m.answer(tools.AnswerAllowSession, nil)
		case "p":
			if patternable(q) {
				m.asks[0].pattern = true
				m.in.Reset()
			}
		case "d", "n", "esc":
			m.answer(tools.AnswerDeny, nil)
		}
		return nil
	}
	switch k.Type {
	case tea.KeyEsc:
		m.answer("", errors.New("the user gave no answer"))
		return nil
	case tea.KeyEnter:
		text := strings.TrimSpace(m.in.Value())
		if n, err := strconv.Atoi(text); err == nil && n >= 1 && n <= len(q.Options) {
			text = q.Options[n-1]
		}
		if text != "" {
			m.answer(text, nil)
		}
		return nil
	}
	var cmd tea.Cmd
	m.in, cmd = m.in.Update(k)
	return cmd
}

// dialogView draws the open approval or question in place of the input.
func (m *Model) dialogView() string {
	q := m.asks[0].q
	w := max(m.width-4, 20)
	var lines []string
	if q.Kind == tools.KindApproval {
		s := m.be.Settings()
		lines = append(lines, m.approvalView(q, s.Workspace, s.Sandbox, w)...)
	} else if q.Kind == tools.KindPlan {
		lines = append(lines, m.planView(q, w)...)
	} else {
		lines = append(lines, m.th.title.Render("The agent asks:"))
		for _, l := range strings.Split(termsafe.String(q.Text), "\n") {
			lines = append(lines, m.rnd.fitTo(l, w))
		}
		for i, o := range q.Options {
			lines = append(lines, m.rnd.fitTo("  "+strconv.Itoa(i+1)+") "+termsafe.Line(o), w))
		}
		lines = append(lines, m.th.dim.Render("type a number or your answer, enter sends, esc skips"), m.in.View())
	}
	if n := len(m.asks); n > 1 {
		lines = append(lines, m.th.dim.Render(strconv.Itoa(n-1)+" more waiting"))
	}
	return m.th.dialog.Width(max(m.width-2, 20)).Render(strings.Join(lines, "\n"))
}

// patternable reports whether q's session grant may be a pattern: an
// escalation's, which names a command.
func patternable(q tools.Question) bool {
	return q.Grant != nil && q.Grant.Mode != "" && q.Grant.Command != ""
}

// patternKey reads the pattern of an escalation's session grant: enter
// grants it once it is valid and matches the command shown, esc goes back
// to the keys.
func (m *Model) patternKey(k tea.KeyMsg) tea.Cmd {
	ask := m.asks[0]
	switch k.Type {
	case tea.KeyEsc:
		ask.pattern, ask.patternErr = false, ""
		m.in.Reset()
		return nil
	case tea.KeyEnter:
		p := m.in.Value()
		switch err := tools.CheckPattern(p); {
		case err != nil:
			ask.patternErr = err.Error()
		case !tools.MatchPattern(p, ask.q.Grant.Command):
			ask.patternErr = "that pattern does not match the command shown"
		default:
			m.dropAsk(ask)
			ask.reply <- askReply{answer: tools.AnswerAllowSession, pattern: p}
			m.in.Reset()
		}
		return nil
	}
	var cmd tea.Cmd
	m.in, cmd = m.in.Update(k)
	return cmd
}

// approvalView lays out an approval (tools.DescribeApproval) in w
// columns: every value wrapped whole, never cut, so a padded command
// shows to its last character, and the mode line (first and last) is on
// screen next to the keys however long the command.
func (m *Model) approvalView(q tools.Question, workspace, mode string, w int) []string {
	title, fields := tools.DescribeApproval(q, workspace, mode)
	lines := []string{m.th.title.Render(title)}
	const labelW = 11
	for _, f := range fields {
		for i, row := range termsafe.Wrap(f.Value, w-labelW) {
			label := ""
			if i == 0 {
				label = f.Label
			}
			if f.Label == "mode" && q.Unconfined {
				row = m.th.warn.Render(row)
			}
			lines = append(lines, padRight(label, labelW-1)+row)
		}
	}
	if ask := m.asks[0]; ask.pattern {
		lines = append(lines, "", m.th.dim.Render("a pattern for the session: the command with * where any text may stand (never ; & | < > ` $ ( )); enter grants, esc goes back"))
		if ask.patternErr != "" {
			lines = append(lines, m.th.warn.Render(ask.patternErr))
		}
		return append(lines, m.in.View())
	}
	keys := m.th.accent.Render("[a]") + " allow once   "
	if len(q.Options) == 0 || slices.Contains(q.Options, tools.AnswerAllowSession) {
		keys += m.th.accent.Render("[s]") + " allow for this session   "
	}
	if patternable(q) {
		keys += m.th.accent.Render("[p]") + " by pattern   "
	}
	return append(lines, "", keys+m.th.accent.Render("[d]")+" deny")
}

func padRight(s string, n int) string {
	if len(s) >= n {
		return s + " "
	}
	return s + strings.Repeat(" ", n-len(s))
}

// planRows bounds the plan shown in the dialog; the whole plan is in the
// conversation above (the exit_plan_mode call).
const planRows = 14

// planKey answers a plan: enter with nothing typed approves it, typed
// text is feedback (keep planning), esc keeps planning.
func (m *Model) planKey(k tea.KeyMsg) tea.Cmd {
	switch k.Type {
	case tea.KeyEsc:
		m.answer(tools.AnswerKeepPlanning, nil)
		return nil
	case tea.KeyEnter:
		if text := strings.TrimSpace(m.in.Value()); text != "" {
			m.answer(text, nil)
		} else {
			m.answer(tools.AnswerApprovePlan, nil)
		}
		return nil
	}
	var cmd tea.Cmd
	m.in, cmd = m.in.Update(k)
	return cmd
}

func (m *Model) planView(q tools.Question, w int) []string {
	title, text := tools.DescribePlan(q)
	lines := []string{m.th.title.Render(title), ""}
	plan := strings.Split(m.rnd.md.render(text, w), "\n")
	if len(plan) > planRows {
		plan = append(plan[:planRows], m.th.dim.Render(fmt.Sprintf("… %d more line(s), in full above", len(plan)-planRows)))
	}
	lines = append(lines, plan...)
	return append(lines, m.th.dim.Render("enter approves · type what to change and press enter to keep planning · esc keeps planning"), m.in.View())
}
