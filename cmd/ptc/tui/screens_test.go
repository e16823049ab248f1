package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/cursor"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// drive feeds msgs and runs every command they return, feeding the
// results back, so a test sees what a real event loop would do.
func drive(m *Model, msgs ...tea.Msg) {
	m.tick = func() tea.Cmd { return nil }
	m.in.Cursor.SetMode(cursor.CursorStatic)
	for _, msg := range msgs {
		_, cmd := m.Update(msg)
		runCmd(m, cmd)
	}
}

func runCmd(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			runCmd(m, c)
		}
	case tea.QuitMsg:
	default:
		_, next := m.Update(msg)
		runCmd(m, next)
	}
}

func turnOf(e *events, prompt string) *events {
	return e.add(session.TypeTurnStart, session.TurnStart{Turn: 1}).
		add(session.TypeUserMessage, session.UserMessage{ID: "u1", Content: session.TextBlocks(prompt), Source: session.Source{Kind: "user"}}).
		add(session.TypeStepStart, session.StepMark{Turn: 1, Step: 1})
}

func chunk(kind llm.ChunkKind, text string) session.AssistantChunk {
	return session.AssistantChunk{Turn: 1, Step: 1, Attempt: 1, Chunk: llm.Chunk{Kind: kind, Text: text}}
}

func answer(text, reasoning string, u llm.Usage) session.AssistantMessage {
	return session.AssistantMessage{Turn: 1, Step: 1, Message: llm.Message{Role: llm.RoleAssistant, Content: text, Reasoning: reasoning}, Finish: llm.FinishStop, Usage: u}
}

const answerMarkdown = "# Plan\n\nThe fix is **small**: change `parse` in *one* place.\n\n## Steps\n\n- read `main.go`\n- edit the loop\n\n```go\nfor i := range n {\n}\n```\n"

func TestMarkdownAnswerRendersWithoutRawMarkers(t *testing.T) {
	be := newFake(t)
	e := turnOf(&events{}, "how do I fix it?").
		add(session.TypeAssistantChunk, chunk(llm.ChunkReasoning, "The user wants a fix.\nLook at parse.")).
		add(session.TypeAssistantChunk, chunk(llm.ChunkText, answerMarkdown)).
		add(session.TypeAssistantMessage, answer(answerMarkdown, "The user wants a fix.\nLook at parse.", llm.Usage{InputTokens: 12000, CacheHitTokens: 9000, OutputTokens: 800})).
		add(session.TypeStepEnd, session.StepMark{Turn: 1, Step: 1}).
		add(session.TypeTurnEnd, session.TurnEnd{Turn: 1, Reason: session.ReasonCompleted})
	m := newTestModel(t, be)
	drive(m, e.items())
	got := screen(m)
	golden(t, "markdown", got)
	for _, raw := range []string{"**", "# Plan", "## Steps", "`parse`", "```"} {
		if strings.Contains(got, raw) {
			t.Errorf("the screen shows raw markdown %q", raw)
		}
	}
	t.Run("the status line shows tokens, cache share and cost", func(t *testing.T) {
		drive(m, tea.WindowSizeMsg{Width: 120, Height: 24})
		last := lastLine(screen(m))
		defer drive(m, tea.WindowSizeMsg{Width: 80, Height: 24})
		for _, want := range []string{"deepseek-v4-flash", "ptc", "workspace-write", "↑12.0k ↓800", "75% cached", "$0.0008", "ctx 0/1.05M"} {
			if !strings.Contains(last, want) {
				t.Errorf("status line %q lacks %q", last, want)
			}
		}
	})
	t.Run("ctrl+t shows the reasoning dimmed in full", func(t *testing.T) {
		drive(m, press("ctrl+t"))
		golden(t, "reasoning-shown", screen(m))
	})
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

const program = "const files = await tools.glob({pattern: \"**/*.go\"});\nconst out = await tools.bash({command: \"go vet ./...\", description: \"vet\"});\nconsole.log(files.total, \"files\");\nconst big = files.paths.filter(p => p.length > 10);\nconsole.log(big.length);\nreturn out.exit_code;"

func TestRunCodeProgramAndNestedCallsShowWhileItRuns(t *testing.T) {
	be := newFake(t)
	e := turnOf(&events{}, "vet it").
		add(session.TypeToolCall, session.ToolCall{Turn: 1, Step: 1, CallID: "c1", Name: "run_code", Arguments: mustJSON(map[string]string{"code": program, "description": "vet the module"})}).
		add(session.TypePtcDispatchStart, session.PtcDispatch{RootCallID: "c1", ParentCallID: "c1", SubCallID: "c1:ptc:1", Name: "glob", Arguments: `{"pattern":"**/*.go"}`}).
		wait(12).
		add(session.TypePtcDispatch, session.PtcDispatch{RootCallID: "c1", ParentCallID: "c1", SubCallID: "c1:ptc:1", Name: "glob", Arguments: `{"pattern":"**/*.go"}`, Content: "a.go\nb.go"}).
		add(session.TypePtcDispatchStart, session.PtcDispatch{RootCallID: "c1", ParentCallID: "c1", SubCallID: "c1:ptc:2", Name: "bash", Arguments: `{"command":"go vet ./...","description":"vet"}`}).
		add(session.TypePtcLog, session.PtcLog{CallID: "c1", Level: "log", Text: "2 files"})
	m := newTestModel(t, be)
	drive(m, e.items())
	golden(t, "run-code-running", screen(m))

	e.wait(300).
		add(session.TypePtcDispatch, session.PtcDispatch{RootCallID: "c1", ParentCallID: "c1", SubCallID: "c1:ptc:2", Name: "bash", IsError: false, Content: "[stderr]\nvet: x.go:3: unreachable code\n[exit code 1]"}).
		add(session.TypeToolResult, session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Name: "run_code", Content: session.TextBlocks("2 files\n1\n1")})
	drive(m, e.items())
	t.Run("settled, the program is collapsed and ctrl+o expands it", func(t *testing.T) {
		golden(t, "run-code-done", screen(m))
		drive(m, press("ctrl+o"))
		golden(t, "run-code-expanded", screen(m))
	})
}

func mustJSON(v any) string {
	b, err := jsonMarshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestBashShowsTheCommandExitCodeAndTheHeadOfItsOutput(t *testing.T) {
	be := newFake(t)
	be.settings.Preset = "standard"
	out := "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\n[exit code 2]"
	e := turnOf(&events{}, "test").
		add(session.TypeToolCall, session.ToolCall{Turn: 1, Step: 1, CallID: "c1", Name: "bash", Arguments: `{"command":"go test ./...","description":"run the tests"}`}).
		wait(2300).
		add(session.TypeToolResult, session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Name: "bash", Content: session.TextBlocks(out)})
	m := newTestModel(t, be)
	drive(m, e.items())
	golden(t, "bash", screen(m))
}

func TestAnEditShowsAsAColouredUnifiedDiff(t *testing.T) {
	be := newFake(t)
	before := "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"
	after := "package main\n\nfunc main() {\n\tprintln(\"hello\")\n\tprintln(\"bye\")\n}\n"
	call := session.ToolCall{Turn: 1, Step: 1, CallID: "c1", Name: "edit", Arguments: `{"file_path":"main.go","old_string":"\tprintln(\"hi\")","new_string":"\tprintln(\"hello\")\n\tprintln(\"bye\")"}`}
	e := turnOf(&events{}, "edit").
		add(session.TypeToolCall, call).
		add(session.TypeToolResult, session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Name: "edit", Content: session.TextBlocks("Edited main.go: 1 replacement(s), now 60 bytes.")})
	items := e.items()
	items[len(items)-2].change = &fileChange{before: before, hasBefore: true}
	items[len(items)-1].change = &fileChange{after: after, hasAfter: true}
	m := newTestModel(t, be)
	drive(m, items)
	got := screen(m)
	golden(t, "edit-diff", got)
	for _, want := range []string{"@@ -1,5 +1,6 @@", `-    println("hi")`, `+    println("hello")`, `+    println("bye")`} {
		if !strings.Contains(got, want) {
			t.Errorf("the diff lacks %q", want)
		}
	}
	t.Run("a resumed session without snapshots diffs the edit's own strings", func(t *testing.T) {
		m := newTestModel(t, be)
		drive(m, e.items())
		if got := screen(m); !strings.Contains(got, `+    println("bye")`) || strings.Contains(got, "1 replacement(s)") {
			t.Fatalf("no diff from the arguments:\n%s", got)
		}
	})
}

// hostile is what a model or repository may put in a name or a
// justification: a clear-screen, a fake prompt, a bidi override, a bell.
const hostile = "ls\x1b[2J\x1b[H\x1b[32mread-only OK\x1b[0m \u202egnp.exe\a"

func TestHostileTextIsShownEscaped(t *testing.T) {
	be := newFake(t)
	e := turnOf(&events{}, "go").
		add(session.TypeToolCall, session.ToolCall{Turn: 1, Step: 1, CallID: "c1", Name: "evil\x1b]0;pwned\x07\u202etool", Arguments: `{"x":1}`}).
		add(session.TypeToolResult, session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Name: "evil", IsError: true, Error: &session.ErrorInfo{Code: "UNKNOWN_TOOL", Message: "no tool \x1b[31mnamed\x1b[0m that"}}).
		add(session.TypeAssistantMessage, answer("done \x1b[2J", "", llm.Usage{}))
	m := newTestModel(t, be)
	drive(m, e.items())
	ask := &pendingAsk{q: tools.Question{Kind: tools.KindApproval, CallID: "c2", Tool: "bash",
		Mode: "danger-full-access", Current: "workspace-write", Unconfined: true, Justification: hostile,
		Args: mustJSON(map[string]string{"command": "rm -rf ~", "sandbox_permissions": "danger-full-access", "justification": hostile})}, reply: make(chan askReply, 1)}
	drive(m, askMsg{ask})
	got := screen(m)
	golden(t, "hostile", got)
	view := m.View()
	for _, raw := range []string{"\x1b[2J", "\x1b]0;", "\u202e", "\a"} {
		if strings.Contains(view, raw) {
			t.Errorf("the view holds %q raw", raw)
		}
	}
	for _, want := range []string{`\x1b[2J`, `\u202e`, "danger-full-access", "rm -rf ~", "UNCONFINED"} {
		if !strings.Contains(got, want) {
			t.Errorf("the screen lacks %q", want)
		}
	}
	t.Run("s allows for the session", func(t *testing.T) {
		drive(m, press("s"))
		if r := <-ask.reply; r.answer != tools.AnswerAllowSession {
			t.Fatalf("answer = %+v", r)
		}
	})
}

// padded is issue 21's spoofed approval: a command padded with spaces so
// its tail falls off a cut line, and a justification laid out as
// 80-column rows that draw a fake, harmless-looking mode.
func padded() tools.Question {
	command := "ls -la" + strings.Repeat(" ", 300) + "; echo HOST > x"
	var why strings.Builder
	for range 8 {
		for _, row := range []string{"list the files", "mode      read-only", "where     inside the sandbox"} {
			why.WriteString(row + strings.Repeat(" ", 80-len(row)))
		}
	}
	return tools.Question{Kind: tools.KindApproval, CallID: "c1", Tool: "bash", Mode: "danger-full-access", Current: "workspace-write",
		Unconfined: true, Justification: why.String(), Grant: &session.Grant{Tool: "bash", Mode: "danger-full-access", Command: command},
		Options: []string{tools.AnswerAllowOnce, tools.AnswerAllowSession, tools.AnswerDeny},
		Args:    mustJSON(map[string]string{"command": command, "description": "list", "sandbox_permissions": "danger-full-access", "justification": why.String()})}
}

func TestAPaddedApprovalShowsItsRealModeAndTheWholeCommand(t *testing.T) {
	m := newTestModel(t, newFake(t))
	drive(m, askMsg{&pendingAsk{q: padded(), reply: make(chan askReply, 1)}})
	got := screen(m)
	golden(t, "approval-padded", got)
	rows := strings.Split(got, "\n")
	if len(rows) > 24 {
		t.Fatalf("the screen has %d rows", len(rows))
	}
	if !strings.Contains(got, "ls -la⟨300 spaces⟩; echo HOST > x") {
		t.Errorf("the screen does not show the whole command:\n%s", got)
	}
	if strings.Count(got, "danger-full-access, UNCONFINED: no sandbox") != 2 {
		t.Errorf("the real mode line must show first and last:\n%s", got)
	}
	if strings.Contains(got, "mode      read-only") {
		t.Errorf("the justification drew a fake mode line:\n%s", got)
	}
}

func TestAPatternGrantIsTypedInTheDialog(t *testing.T) {
	m := newTestModel(t, newFake(t))
	q := padded()
	q.Grant.Command = "go test ./..."
	ask := &pendingAsk{q: q, reply: make(chan askReply, 1)}
	drive(m, askMsg{ask}, press("p"))
	typeText(m, "make *")
	drive(m, press("enter"))
	if got := screen(m); !strings.Contains(got, "that pattern does not match the command shown") {
		t.Fatalf("a pattern that does not match was not refused:\n%s", got)
	}
	m.in.Reset()
	typeText(m, "go test *")
	drive(m, press("enter"))
	if r := <-ask.reply; r.answer != tools.AnswerAllowSession || r.pattern != "go test *" {
		t.Fatalf("reply %+v", r)
	}
}

func TestHelpListsTheCommandsWithoutATurn(t *testing.T) {
	be := newFake(t)
	m := newTestModel(t, be, tea.WindowSizeMsg{Width: 100, Height: 40})
	typeText(m, "/help")
	drive(m, press("enter"))
	got := screen(m)
	golden(t, "help", got)
	if len(be.runs) != 0 {
		t.Fatalf("/help reached the model: %q", be.runs)
	}
	for _, c := range []string{"/new", "/resume", "/sessions", "/compact", "/model", "/preset", "/sandbox", "/approval", "/cost", "/exit", "/init"} {
		if !strings.Contains(got, c) {
			t.Errorf("/help does not list %s", c)
		}
	}
}

func TestSlashCommandsNeverReachTheModel(t *testing.T) {
	cases := []struct {
		input string
		check func(t *testing.T, be *fakeBackend, screen string)
	}{
		{"/cost", func(t *testing.T, _ *fakeBackend, s string) { mustContain(t, s, "answers") }},
		{"/model", func(t *testing.T, _ *fakeBackend, s string) { mustContain(t, s, "known models") }},
		{"/model deepseek-v4-pro", func(t *testing.T, be *fakeBackend, _ string) {
			if len(be.changes) != 1 || be.changes[0].Model != "deepseek-v4-pro" {
				t.Fatalf("changes = %+v", be.changes)
			}
		}},
		{"/sandbox read-only", func(t *testing.T, be *fakeBackend, _ string) {
			if len(be.changes) != 1 || be.changes[0].Sandbox != "read-only" {
				t.Fatalf("changes = %+v", be.changes)
			}
		}},
		{"/new", func(t *testing.T, be *fakeBackend, _ string) {
			if len(be.switched) != 1 || be.switched[0] != "" {
				t.Fatalf("switched = %q", be.switched)
			}
		}},
		{"/nonsense", func(t *testing.T, _ *fakeBackend, s string) { mustContain(t, s, "unknown command /nonsense") }},
	}
	for _, c := range cases {
		t.Run(c.input+" is handled by the TUI", func(t *testing.T) {
			be := newFake(t)
			m := newTestModel(t, be)
			typeText(m, c.input)
			drive(m, press("esc"), press("enter"))
			if len(be.runs) != 0 {
				t.Fatalf("%s reached the model: %q", c.input, be.runs)
			}
			c.check(t, be, screen(m))
		})
	}
	t.Run("//text is sent to the model as /text", func(t *testing.T) {
		be := newFake(t)
		m := newTestModel(t, be)
		typeText(m, "//etc is a directory?")
		drive(m, press("enter"))
		if len(be.runs) != 1 || be.runs[0] != "/etc is a directory?" {
			t.Fatalf("runs = %q", be.runs)
		}
	})
}

func mustContain(t *testing.T, s, want string) {
	t.Helper()
	if !strings.Contains(s, want) {
		t.Fatalf("screen lacks %q:\n%s", want, s)
	}
}

func TestInputHistoryAndMultiLinePaste(t *testing.T) {
	be := newFake(t)
	m := newTestModel(t, be)
	typeText(m, "first prompt")
	drive(m, press("enter"))
	drive(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("line one\nline two\nline three"), Paste: true})
	if got := m.in.Value(); got != "line one\nline two\nline three" {
		t.Fatalf("paste gave %q", got)
	}
	golden(t, "paste", screen(m))
	drive(m, press("enter"))
	if len(be.runs) != 2 || be.runs[1] != "line one\nline two\nline three" {
		t.Fatalf("a pasted block must be one turn: %q", be.runs)
	}
	t.Run("up recalls the previous inputs, down returns to the draft", func(t *testing.T) {
		typeText(m, "draft")
		drive(m, press("up"))
		if got := m.in.Value(); got != "line one\nline two\nline three" {
			t.Fatalf("up gave %q", got)
		}
		drive(m, press("up")) // still browsing: the recalled block is unchanged
		if got := m.in.Value(); got != "first prompt" {
			t.Fatalf("second up gave %q", got)
		}
		drive(m, press("down"), press("down"))
		if got := m.in.Value(); got != "draft" {
			t.Fatalf("down gave %q", got)
		}
	})
	t.Run("the history is kept per workspace across sessions", func(t *testing.T) {
		m2 := newTestModel(t, be)
		drive(m2, press("up"))
		if got := m2.in.Value(); got != "line one\nline two\nline three" {
			t.Fatalf("a new TUI recalls %q", got)
		}
	})
	t.Run("ctrl+j inserts a new line instead of sending", func(t *testing.T) {
		m3 := newTestModel(t, be)
		typeText(m3, "a")
		drive(m3, press("ctrl+j"))
		typeText(m3, "b")
		if got := m3.in.Value(); got != "a\nb" {
			t.Fatalf("value %q", got)
		}
	})
}

func TestAtPathCompletesAndAttachesTheFile(t *testing.T) {
	be := newFake(t)
	be.settings.Workspace = t.TempDir()
	writeFile(t, be.settings.Workspace, "internal/parse/parse.go", "package parse\n")
	writeFile(t, be.settings.Workspace, "README.md", "# readme\n")
	m := newTestModel(t, be)
	typeText(m, "look at @pars")
	golden(t, "at-completion", screen(m))
	drive(m, press("tab")) // the directory first, then the file in it
	if got := m.in.Value(); got != "look at @internal/parse/" {
		t.Fatalf("completion gave %q", got)
	}
	drive(m, press("tab"))
	if got := m.in.Value(); got != "look at @internal/parse/parse.go " {
		t.Fatalf("completion gave %q", got)
	}
	drive(m, press("enter"))
	if len(be.runs) != 1 || !strings.Contains(be.runs[0], "<attached-file path=\"internal/parse/parse.go\">\npackage parse\n</attached-file>") {
		t.Fatalf("the file was not attached: %q", be.runs)
	}
	typed, files := splitAttachments(be.runs[0])
	if typed != "look at @internal/parse/parse.go" || len(files) != 1 {
		t.Fatalf("split = %q %q", typed, files)
	}
}

func TestResumePickerListsTheWorkspaceSessions(t *testing.T) {
	be := newFake(t)
	be.list = []session.Summary{
		{Header: session.Header{ID: "20261201-abcdef-123456"}, Title: "fix the parser", Turns: 3, UpdatedAt: clock.UnixMilli()},
		{Header: session.Header{ID: "20261130-fedcba-654321"}, Title: "write \x1b[2Jdocs", Turns: 1, UpdatedAt: clock.Add(-24 * 3600e9).UnixMilli()},
	}
	m := newTestModel(t, be)
	typeText(m, "/resume")
	drive(m, press("esc"), press("enter"))
	got := screen(m)
	golden(t, "resume-picker", got)
	drive(m, press("down"), press("enter"))
	if len(be.switched) != 1 || be.switched[0] != "20261130-fedcba-654321" {
		t.Fatalf("switched = %q", be.switched)
	}
}

func TestResumingShowsTheEarlierTurns(t *testing.T) {
	be := newFake(t)
	turnOf(&events{}, "what is here?")
	e := turnOf(&events{}, "what is here?").
		add(session.TypeAssistantMessage, answer("A **Go** module.", "", llm.Usage{InputTokens: 100, OutputTokens: 10})).
		add(session.TypeTurnEnd, session.TurnEnd{Turn: 1, Reason: session.ReasonCompleted})
	be.events = e.list
	m := newTestModel(t, be)
	got := screen(m)
	golden(t, "resumed", got)
	mustContain(t, got, "what is here?")
	mustContain(t, got, "A Go module.")
}

func TestPlanModeGoalsAndSubagentsShowInTheStatusLine(t *testing.T) {
	be := newFake(t)
	e := turnOf(&events{}, "plan it").
		add(session.TypePlanMode, session.PlanMode{Active: true, By: "user"}).
		add(session.TypeGoalCreate, session.GoalChange{Goal: session.Goal{ID: "g1", Objective: "make the tests pass", MaxRounds: 5, Status: session.GoalActive}, Action: "create", By: "user"}).
		add(session.TypeGoalRound, session.GoalRound{GoalID: "g1", Round: 2, MaxRounds: 5}).
		add(session.TypeSubagentStart, session.SubagentStart{CallID: "c9", Child: "20261201-child1-000001", Description: "read the docs", Depth: 1}).
		add(session.TypeToolCall, session.ToolCall{Turn: 1, Step: 1, CallID: "c1", Name: "exit_plan_mode", Arguments: mustJSON(map[string]string{"plan": "1. **Read** the tests\n2. Fix `parse`"})})
	m := newTestModel(t, be)
	drive(m, e.items(), tea.WindowSizeMsg{Width: 120, Height: 30})
	ask := &pendingAsk{q: tools.Question{Kind: tools.KindPlan, CallID: "c1", Tool: "exit_plan_mode", Text: "1. **Read** the tests\n2. Fix `parse`",
		Options: []string{tools.AnswerApprovePlan, tools.AnswerKeepPlanning}}, reply: make(chan askReply, 1)}
	drive(m, askMsg{ask})
	got := screen(m)
	golden(t, "plan", got)
	status := lastLine(got)
	for _, want := range []string{"PLAN", "goal: make the tests pass (2/5)", "1 child session(s)"} {
		if !strings.Contains(status, want) {
			t.Errorf("status line %q lacks %q", status, want)
		}
	}
	t.Run("typed feedback keeps planning, a bare enter approves", func(t *testing.T) {
		typeText(m, "add a test first")
		drive(m, press("enter"))
		if r := <-ask.reply; r.answer != "add a test first" {
			t.Fatalf("answer %+v", r)
		}
		again := &pendingAsk{q: ask.q, reply: make(chan askReply, 1)}
		drive(m, askMsg{again}, press("enter"))
		if r := <-again.reply; r.answer != tools.AnswerApprovePlan {
			t.Fatalf("answer %+v", r)
		}
	})
	t.Run("/plan toggles plan mode and /goal sets a goal and runs its rounds", func(t *testing.T) {
		typeText(m, "/plan")
		drive(m, press("esc"), press("enter"))
		if !be.plan {
			t.Fatal("/plan did not switch plan mode on")
		}
		typeText(m, "/goal ship it")
		drive(m, press("enter"))
		if be.goal.Objective != "ship it" || len(be.runs) != 1 || be.runs[0] != "(goal rounds)" {
			t.Fatalf("goal %+v runs %q", be.goal, be.runs)
		}
	})
}

func TestAQuestionFromTheAgentIsAnsweredInTheDialog(t *testing.T) {
	be := newFake(t)
	m := newTestModel(t, be)
	ask := &pendingAsk{q: tools.Question{Kind: tools.KindQuestion, Text: "Which \x1b[31mdatabase\x1b[0m?", Options: []string{"Postgres", "SQLite"}}, reply: make(chan askReply, 1)}
	drive(m, askMsg{ask})
	golden(t, "question", screen(m))
	typeText(m, "2")
	drive(m, press("enter"))
	if r := <-ask.reply; r.answer != "SQLite" {
		t.Fatalf("answer %+v", r)
	}
}

func TestAPromptTypedDuringATurnIsQueued(t *testing.T) {
	be := newFake(t)
	m := newTestModel(t, be)
	m.running = true
	typeText(m, "next thing")
	drive(m, press("enter"))
	if len(be.runs) != 0 || len(be.queue) != 1 || be.queue[0] != "next thing" {
		t.Fatalf("runs %q, session queue %q", be.runs, be.queue)
	}
	t.Run("the session runs it when it arrived as the turn ended", func(t *testing.T) {
		drive(m, turnDoneMsg{out: agent.Outcome{Reason: session.ReasonCompleted}})
		if len(be.runs) != 1 || be.runs[0] != "next thing" || len(be.queue) != 0 {
			t.Fatalf("the queued prompt did not run: runs %q queue %q", be.runs, be.queue)
		}
	})
	t.Run("after a cancelled turn it goes back to the input as typed", func(t *testing.T) {
		ws := t.TempDir()
		writeFile(t, ws, "notes.txt", "remember the milk\n")
		be.settings.Workspace = ws
		m.running = true
		typeText(m, "later @notes.txt")
		drive(m, press("enter"))
		if len(be.queue) != 1 || !strings.Contains(be.queue[0], "remember the milk") {
			t.Fatalf("session queue %q", be.queue)
		}
		drive(m, turnDoneMsg{out: agent.Outcome{Reason: session.ReasonAborted}})
		if len(be.runs) != 1 || len(be.queue) != 0 || m.in.Value() != "later @notes.txt" {
			t.Fatalf("runs %q queue %q input %q", be.runs, be.queue, m.in.Value())
		}
		m.in.Reset()
	})
	t.Run("while a compaction holds the session the text stays in the input", func(t *testing.T) {
		m.running, m.busy = false, "compacting"
		typeText(m, "wait for me")
		drive(m, press("enter"))
		if len(be.runs) != 1 || len(be.queue) != 0 || m.in.Value() != "wait for me" {
			t.Fatalf("runs %q queue %q input %q", be.runs, be.queue, m.in.Value())
		}
		mustContain(t, screen(m), "send this when it is done")
	})
}

func TestADialogDoesNotScrollTheConversationAway(t *testing.T) {
	be := newFake(t)
	e := turnOf(&events{}, "long")
	for i := range 40 {
		e.add(session.TypeUserMessage, session.UserMessage{ID: fmt.Sprint(i), Content: session.TextBlocks(fmt.Sprintf("line %d", i)), Source: session.Source{Kind: "user"}})
	}
	m := newTestModel(t, be)
	drive(m, e.items())
	ask := &pendingAsk{q: tools.Question{Kind: tools.KindApproval, Tool: "bash", Args: `{"command":"ls"}`}, reply: make(chan askReply, 1)}
	drive(m, askMsg{ask})
	mustContain(t, screen(m), "line 39")
	drive(m, press("d"))
	mustContain(t, screen(m), "line 39")
}
