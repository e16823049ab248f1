package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/runtime/session"
)

// todo_write shows as a checklist, not its JSON.
func TestTodoWriteShowsAsAChecklist(t *testing.T) {
	be := newFake(t)
	be.settings.Preset = "standard"
	args := `{"todos":[{"content":"read the code","status":"completed"},{"content":"write the fix","status":"in_progress"},{"content":"run the tests\u001b[2J","status":"pending"}]}`
	e := turnOf(&events{}, "plan").
		add(session.TypeToolCall, session.ToolCall{Turn: 1, Step: 1, CallID: "c1", Name: "todo_write", Arguments: args}).
		add(session.TypeToolResult, session.ToolResult{Turn: 1, Step: 1, CallID: "c1", Name: "todo_write", Content: session.TextBlocks(`{"todos":[{"content":"read the code"}]}`)})
	m := newTestModel(t, be)
	drive(m, e.items())
	s := screen(m)
	for _, want := range []string{"todo_write — 3 item(s), 1 done", "☑ read the code", "◐ write the fix", `☐ run the tests\x1b[2J`} {
		if !strings.Contains(s, want) {
			t.Fatalf("the screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, `{"todos"`) {
		t.Fatalf("the screen shows the raw JSON:\n%s", s)
	}
}

// A large paste shows as its first lines and a count, until ctrl+o.
func TestALargePasteFoldsInTheTranscript(t *testing.T) {
	be := newFake(t)
	var lines []string
	for i := range 40 {
		lines = append(lines, "pasted line "+strings.Repeat("x", i%3)+string(rune('a'+i%26)))
	}
	e := turnOf(&events{}, strings.Join(lines, "\n"))
	m := newTestModel(t, be)
	drive(m, e.items())
	s := screen(m)
	if !strings.Contains(s, "[pasted 40 lines] · ctrl+o expands") || strings.Contains(s, lines[10]) {
		t.Fatalf("the paste is not folded:\n%s", s)
	}
}

// /status names the settings in force without a turn.
func TestStatusShowsTheSettings(t *testing.T) {
	be := newFake(t)
	be.settings.Sandbox, be.settings.Approval = "read-only", "never"
	m := newTestModel(t, be)
	m.in.SetValue("/status")
	drive(m, tea.KeyMsg{Type: tea.KeyEnter})
	s := screen(m)
	for _, want := range []string{"sandbox    read-only", "approval   never", "plan mode  off"} {
		if !strings.Contains(s, want) {
			t.Fatalf("/status lacks %q:\n%s", want, s)
		}
	}
}

// ctrl+r's search steps back through the entries holding the query, and
// down returns to what was typed.
func TestHistorySearchStepsBackThroughMatches(t *testing.T) {
	h := &history{entries: []string{"run the tests", "fix the bug", "run the linter", "deploy"}}
	h.pos = len(h.entries)
	got, ok := h.search("run", "run")
	if !ok || got != "run the linter" {
		t.Fatalf("first match %q %v", got, ok)
	}
	if got, ok = h.search("run", got); !ok || got != "run the tests" {
		t.Fatalf("second match %q %v", got, ok)
	}
	if _, ok = h.search("run", got); ok {
		t.Fatal("a match past the oldest")
	}
	for h.pos < len(h.entries)-1 {
		h.next()
	}
	if back, _ := h.next(); back != "run" {
		t.Fatalf("down at the end gives %q, want the draft", back)
	}
	if _, ok := h.search("nothing like it", ""); ok {
		t.Fatal("matched nothing")
	}
}
