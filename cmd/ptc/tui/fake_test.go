package tui

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/vt"
	"github.com/muesli/termenv"

	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/compact"
	"github.com/ptc-dev/ptc/runtime/llm/models"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/slash"
)

var update = flag.Bool("update", false, "rewrite the golden screens in testdata/")

// fakeBackend is a session without a runtime: it records what the TUI
// asked of it.
type fakeBackend struct {
	settings session.Settings
	model    models.Model
	events   []session.Event
	list     []session.Summary
	runs     []string
	changes  []session.Settings
	switched []string
	home     string
	plan     bool
	goal     session.Goal
	queue    []string // follow-ups, as a session's inbox holds them
	commands slash.Set
}

func newFake(t *testing.T) *fakeBackend {
	// A fixed workspace keeps golden screens stable; tests that need
	// files there set their own.
	return &fakeBackend{
		settings: session.Settings{Workspace: "/home/dev/project", Preset: "ptc", Model: "deepseek-v4-flash", Sandbox: "workspace-write", Approval: "ask"},
		model:    models.Builtin().Lookup("deepseek-v4-flash"),
		home:     t.TempDir(),
	}
}

func (f *fakeBackend) ID() string                                      { return "20261201-abcdef-123456" }
func (f *fakeBackend) Settings() session.Settings                      { return f.settings }
func (f *fakeBackend) Model() models.Model                             { return f.model }
func (f *fakeBackend) Models() []models.Model                          { return models.Builtin().List() }
func (f *fakeBackend) Events() []session.Event                         { return f.events }
func (f *fakeBackend) Subscribe(func(session.Event)) func()            { return func() {} }
func (f *fakeBackend) Cancel() bool                                    { return false }
func (f *fakeBackend) ResumeHint() string                              { return "ptc --resume " + f.ID() }
func (f *fakeBackend) HistoryDir() string                              { return f.home }
func (f *fakeBackend) Compact(context.Context) (compact.Result, error) { return compact.Result{}, nil }
func (f *fakeBackend) Sessions(context.Context) ([]session.Summary, error) {
	return f.list, nil
}

func (f *fakeBackend) PlanMode() bool { return f.plan }
func (f *fakeBackend) SetPlanMode(_ context.Context, on bool) error {
	f.plan = on
	return nil
}
func (f *fakeBackend) Goal() (session.Goal, bool) { return f.goal, f.goal.ID != "" }
func (f *fakeBackend) SetGoal(_ context.Context, objective string) (session.Goal, error) {
	f.goal = session.Goal{ID: "g1", Objective: objective, MaxRounds: 5, Status: session.GoalActive, Revision: 1}
	return f.goal, nil
}
func (f *fakeBackend) UpdateGoal(_ context.Context, action string) (session.Goal, error) {
	f.goal.Status = map[string]string{"pause": session.GoalPaused, "resume": session.GoalActive, "complete": session.GoalComplete}[action]
	return f.goal, nil
}
func (f *fakeBackend) RunGoal(context.Context) (agent.Outcome, error) {
	f.runQueue()
	if f.goal.Status == session.GoalActive {
		f.runs = append(f.runs, "(goal rounds)")
	}
	return agent.Outcome{Reason: session.ReasonCompleted}, nil
}

func (f *fakeBackend) Followup(text string) { f.queue = append(f.queue, text) }
func (f *fakeBackend) Queued() int          { return len(f.queue) }
func (f *fakeBackend) TakeFollowups() []string {
	q := f.queue
	f.queue = nil
	return q
}

// runQueue runs the follow-ups as a session does after a turn.
func (f *fakeBackend) runQueue() {
	f.runs = append(f.runs, f.queue...)
	f.queue = nil
}

func (f *fakeBackend) Settle(context.Context) (agent.Outcome, bool, error) {
	return agent.Outcome{}, false, nil
}

func (f *fakeBackend) Run(_ context.Context, input string) (agent.Outcome, error) {
	f.runs = append(f.runs, input)
	f.runQueue()
	return agent.Outcome{Reason: session.ReasonCompleted}, nil
}

func (f *fakeBackend) Change(_ context.Context, s session.Settings, _ ...session.Field) error {
	f.changes = append(f.changes, s)
	return nil
}

func (f *fakeBackend) Switch(_ context.Context, id string) error {
	f.switched = append(f.switched, id)
	return nil
}

// clock is a fixed time, so durations on screen do not depend on the run.
var clock = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// events builds a session's events with contiguous seqs, a millisecond
// apart unless an event says otherwise.
type events struct {
	list []session.Event
	at   int64
}

func (e *events) add(typ string, data any) *events {
	b, err := json.Marshal(data)
	if err != nil {
		panic(err)
	}
	if e.at == 0 {
		e.at = clock.UnixMilli()
	}
	e.list = append(e.list, session.Event{Seq: int64(len(e.list)), Type: typ, Time: e.at, Data: b})
	e.at++
	return e
}

func (e *events) wait(ms int64) *events { e.at += ms; return e }

func (e *events) items() eventsMsg {
	var out eventsMsg
	for _, ev := range e.list {
		out = append(out, item{ev: ev})
	}
	return out
}

// newTestModel is a model at 80×24 without colours, fed msgs.
func newTestModel(t *testing.T, be *fakeBackend, msgs ...tea.Msg) *Model {
	t.Helper()
	m := New(be, Config{Profile: termenv.Ascii, Now: func() time.Time { return clock.Add(1500 * time.Millisecond) }})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, msg := range msgs {
		m.Update(msg)
	}
	return m
}

// screen is what a terminal shows after drawing the model's view: the
// view goes through a virtual terminal, so cursor movement, wrapping and
// escape sequences count as a real terminal would count them.
func screen(m *Model) string {
	e := vt.NewEmulator(m.width, m.height)
	_, _ = e.WriteString(strings.ReplaceAll(m.View(), "\n", "\r\n"))
	return e.String()
}

// golden compares a screen with testdata/NAME.golden (-update rewrites it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if string(want) != got {
		t.Fatalf("screen differs from %s (rerun with -update if the change is intended)\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

func press(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "ctrl+o":
		return tea.KeyMsg{Type: tea.KeyCtrlO}
	case "ctrl+t":
		return tea.KeyMsg{Type: tea.KeyCtrlT}
	case "ctrl+j":
		return tea.KeyMsg{Type: tea.KeyCtrlJ}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func typeText(m *Model, s string) {
	for _, r := range s {
		drive(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
