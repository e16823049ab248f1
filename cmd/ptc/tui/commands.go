package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/goal"
	"github.com/ptc-dev/ptc/runtime/session"
)

// command is one slash command. None of them reaches the model except
// /init, whose whole point is a turn.
type command struct {
	name, args, help string
	whileRunning     bool // may run while a turn is going on
	run              func(m *Model, arg string) tea.Cmd
}

var commands []command

func init() {
	commands = []command{
		{name: "help", help: "list the commands and keys", whileRunning: true, run: (*Model).cmdHelp},
		{name: "new", help: "start a new session in this workspace", run: (*Model).cmdNew},
		{name: "resume", args: "[ID]", help: "continue one of this workspace's sessions (a picker without ID)", run: (*Model).cmdResume},
		{name: "sessions", help: "list this workspace's sessions", whileRunning: true, run: (*Model).cmdSessions},
		{name: "compact", help: "summarise the conversation so far to free context", run: (*Model).cmdCompact},
		{name: "model", args: "[NAME]", help: "show or switch the model", run: settingCommand(session.FieldModel)},
		{name: "preset", args: "[NAME]", help: "show or switch the preset (ptc, standard, minimal, …)", run: settingCommand(session.FieldPreset)},
		{name: "sandbox", args: "[MODE]", help: "show or switch the sandbox mode (read-only, workspace-write, git-write, danger-full-access)", run: settingCommand(session.FieldSandbox)},
		{name: "approval", args: "[POLICY]", help: "show or switch the approval policy (ask, never)", run: settingCommand(session.FieldApproval)},
		{name: "status", help: "the session's settings: model, sandbox, approval, plan, goal, changes", whileRunning: true, run: (*Model).cmdStatus},
		{name: "cost", help: "tokens and cost of this session", whileRunning: true, run: (*Model).cmdCost},
		{name: "plan", args: "[on|off]", help: "plan mode: tools are read-only until you approve the agent's plan (toggles)", whileRunning: true, run: (*Model).cmdPlan},
		{name: "goal", args: "[TEXT]", help: "show the goal, set one (its rounds run until done), or pause|resume|done", run: (*Model).cmdGoal},
		{name: "mcp", help: "the session's MCP servers: state, tools, whether confined", whileRunning: true, run: (*Model).cmdMCP},
		{name: "jobs", args: "[ID]", help: "list background jobs; /jobs ID shows one's output, /jobs kill ID stops it", whileRunning: true, run: (*Model).cmdJobs},
		{name: "diff", args: "[N]", help: "the session's file changes as a diff (N: one turn's)", whileRunning: true, run: (*Model).cmdDiff},
		{name: "rewind", args: "[N]", help: "turns that changed files; N: back to before turn N", run: (*Model).cmdRewind},
		{name: "init", help: "ask the agent to write AGENTS.md (project instructions) for this workspace", run: (*Model).cmdInit},
		{name: "exit", help: "leave (the session is saved; the resume command is printed)", whileRunning: true, run: func(m *Model, _ string) tea.Cmd { return m.exit() }},
	}
}

var aliases = map[string]string{"quit": "exit", "q": "exit", "?": "help", "clear": "new"}

func commandList() []command { return commands }

// parseCommand splits "/name args": a slash, a lower-case word, then
// space or the end. "//text" and "/usr/bin/x …" are not commands.
func parseCommand(text string) (name, arg string, ok bool) {
	if !strings.HasPrefix(text, "/") || strings.HasPrefix(text, "//") {
		return "", "", false
	}
	word, rest, _ := strings.Cut(text[1:], " ")
	word = strings.TrimSpace(strings.SplitN(word, "\n", 2)[0])
	if word == "" || strings.ContainsAny(word, "/.") {
		return "", "", false
	}
	return word, strings.TrimSpace(rest), true
}

func lookupCommand(name string) (command, bool) {
	if a, ok := aliases[name]; ok {
		name = a
	}
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func (m *Model) cmdHelp(string) tea.Cmd {
	var b strings.Builder
	b.WriteString("Commands (they never reach the model, except /init):\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  /%-9s %-9s %s\n", c.name, c.args, c.help)
	}
	b.WriteString(m.customHelp())
	b.WriteString("Keys: enter sends · ctrl+j or alt+enter new line · up/down history, ctrl+r searches it · tab completes /commands and @paths\n")
	b.WriteString("      ctrl+c or esc cancels the running turn · ctrl+c twice exits · ctrl+d exits · ctrl+o expands tool output · ctrl+t shows reasoning · pgup/pgdn scroll\n")
	b.WriteString("@path in a prompt attaches that workspace file; //text sends text that starts with /; !cmd runs cmd in the sandbox, no model call")
	m.tr.notice(toneInfo, b.String())
	return nil
}

func (m *Model) cmdNew(string) tea.Cmd {
	be := m.be
	return m.background("opening a new session", func() tea.Msg {
		return switchedMsg{be.Switch(context.Background(), "")}
	})
}

func (m *Model) cmdResume(arg string) tea.Cmd {
	be := m.be
	if arg != "" {
		return m.background("opening session "+termsafe.Line(arg), func() tea.Msg {
			return switchedMsg{be.Switch(context.Background(), arg)}
		})
	}
	return m.background("listing sessions", func() tea.Msg {
		list, err := be.Sessions(context.Background())
		return sessionsMsg{list: list, err: err, pick: true}
	})
}

func (m *Model) cmdSessions(string) tea.Cmd {
	be := m.be
	return m.background("listing sessions", func() tea.Msg {
		list, err := be.Sessions(context.Background())
		return sessionsMsg{list: list, err: err}
	})
}

// sessions shows a listing, or opens the /resume picker on it.
func (m *Model) sessions(msg sessionsMsg) {
	if msg.err != nil {
		m.tr.notice(toneError, "listing sessions: "+msg.err.Error())
		return
	}
	// Sessions opened and left without a prompt are noise in a listing.
	var list []session.Summary
	for _, s := range msg.list {
		if s.Turns > 0 || s.Header.ID == m.be.ID() {
			list = append(list, s)
		}
	}
	msg.list = list
	if len(msg.list) == 0 {
		m.tr.notice(toneInfo, "no sessions in this workspace yet")
		return
	}
	if msg.pick {
		m.picker = newPicker(msg.list, m.be.ID())
		return
	}
	var b strings.Builder
	b.WriteString("Sessions of this workspace (newest first; /resume ID continues one):")
	for _, s := range msg.list {
		b.WriteString("\n  " + sessionLine(s, m.be.ID()))
	}
	m.tr.notice(toneInfo, b.String())
}

// sessionLine is one session in a listing: id, last update, turns, title.
func sessionLine(s session.Summary, current string) string {
	mark := " "
	if s.Header.ID == current {
		mark = "*"
	}
	when := time.UnixMilli(s.UpdatedAt).Local().Format("2006-01-02 15:04")
	title := s.Title
	if title == "" {
		title = "(no prompt yet)"
	}
	return fmt.Sprintf("%s %s  %s  %2d turn(s)  %s", mark, termsafe.Line(s.Header.ID), when, s.Turns, termsafe.Clip(title, 60))
}

func (m *Model) cmdCompact(string) tea.Cmd {
	be := m.be
	return m.background("compacting", func() tea.Msg {
		res, err := be.Compact(context.Background())
		return compactedMsg{res, err}
	})
}

// settingCommand is /model, /preset, /sandbox and /approval: without an
// argument it shows the setting, with one it switches it between turns
// (logged as a session/settings change).
func settingCommand(field session.Field) func(m *Model, arg string) tea.Cmd {
	return func(m *Model, arg string) tea.Cmd {
		if arg == "" {
			m.tr.notice(toneInfo, m.settingText(field))
			return nil
		}
		var s session.Settings
		switch field {
		case session.FieldModel:
			s.Model = arg
		case session.FieldPreset:
			s.Preset = arg
		case session.FieldSandbox:
			s.Sandbox = arg
		case session.FieldApproval:
			s.Approval = arg
		}
		be := m.be
		return m.background("switching "+string(field), func() tea.Msg {
			return changedMsg{what: "/" + string(field), err: be.Change(context.Background(), s, field)}
		})
	}
}

func (m *Model) settingText(field session.Field) string {
	s := m.be.Settings()
	switch field {
	case session.FieldModel:
		var known []string
		for _, x := range m.be.Models() {
			known = append(known, x.ID)
		}
		return "model: " + termsafe.Line(s.Model) + " (context window " + kilo(m.be.Model().ContextWindow) + ")\n" +
			"known models: " + termsafe.String(strings.Join(known, ", ")) + "\n/model NAME switches (any OpenAI-compatible name works with --base-url)"
	case session.FieldPreset:
		return "preset: " + termsafe.Line(s.Preset) + " · /preset NAME switches (ptc presets lists them)"
	case session.FieldSandbox:
		return "sandbox: " + termsafe.Line(s.Sandbox) + " · /sandbox read-only|workspace-write|git-write|danger-full-access switches"
	}
	return "approval: " + termsafe.Line(s.Approval) + " · /approval ask|never switches"
}

func (m *Model) cmdCost(string) tea.Cmd {
	m.tr.notice(toneInfo, costReport(m.tr.usage, m.be.Model()))
	return nil
}

// initPrompt is the turn /init runs.
const initPrompt = `Write AGENTS.md at the root of this workspace: instructions for coding agents who will work here later. First look around — how to build, test and lint; the layout and which parts matter; conventions visible in the code and docs; anything a newcomer would get wrong. Keep it short and concrete: commands to run, where things are, rules to follow. If AGENTS.md exists already, improve it and keep what is still true. Then say what you wrote.`

func (m *Model) cmdInit(string) tea.Cmd {
	m.tr.notice(toneInfo, "AGENTS.md is read when a session opens (so the system prompt stays the same between requests): /new after this turn starts a session that follows it")
	return m.startTurn(initPrompt)
}

// cmdPlan switches plan mode; it may run during a turn (every later call
// sees the new mode).
func (m *Model) cmdPlan(arg string) tea.Cmd {
	on, ok := PlanSwitch(arg, m.be.PlanMode())
	if !ok {
		m.tr.notice(toneWarn, "use /plan, /plan on or /plan off")
		return nil
	}
	be := m.be
	return func() tea.Msg {
		return changedMsg{what: "/plan", err: be.SetPlanMode(context.Background(), on)}
	}
}

// PlanSwitch reads /plan's argument, in the TUI and in line mode alike:
// "on", "off", or nothing to toggle from current; ok is false for
// anything else.
func PlanSwitch(arg string, current bool) (on, ok bool) {
	switch arg {
	case "on":
		return true, true
	case "off":
		return false, true
	case "":
		return !current, true
	}
	return current, false
}

// goalActions are the /goal words that change the goal instead of
// setting a new one.
var goalActions = map[string]string{"pause": goal.ActionPause, "resume": goal.ActionResume, "done": goal.ActionComplete, "complete": goal.ActionComplete}

// GoalAction is the goal action a /goal word names (pause, resume, done or
// complete), in the TUI and in line mode alike; ok is false for any other
// text, which sets a new goal.
func GoalAction(arg string) (action string, ok bool) {
	action, ok = goalActions[arg]
	return action, ok
}

// cmdGoal shows, sets or changes the goal. Setting one (or resuming it)
// runs its rounds like a turn: ctrl+c stops them.
func (m *Model) cmdGoal(arg string) tea.Cmd {
	if arg == "" {
		if g, ok := m.be.Goal(); ok {
			m.tr.notice(toneInfo, fmt.Sprintf("goal: %s (%s, round %d of %d)", termsafe.Clip(g.Objective, 300), termsafe.Line(g.Status), g.Rounds, g.MaxRounds))
		} else {
			m.tr.notice(toneInfo, "no goal; /goal TEXT sets one and runs rounds until the agent reports it done")
		}
		return nil
	}
	var g session.Goal
	var err error
	if action, ok := GoalAction(arg); ok {
		g, err = m.be.UpdateGoal(context.Background(), action)
	} else {
		g, err = m.be.SetGoal(context.Background(), arg)
	}
	if err != nil {
		m.tr.notice(toneError, err.Error())
		return nil
	}
	if g.Status != session.GoalActive {
		return nil
	}
	return m.runQueued()
}
