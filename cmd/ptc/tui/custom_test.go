package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/runtime/slash"
)

func (f *fakeBackend) Commands() slash.Set { return f.commands }

func withCommands(be *fakeBackend) *fakeBackend {
	be.commands = slash.Set{Commands: []slash.Command{
		{Name: "hello", Description: "Greets someone", ArgumentHint: "NAME", Source: "workspace", Body: "Say hello to $ARGUMENTS"},
		{Name: "help", Source: "workspace", Body: "a custom help never replaces the built-in one"},
		{Name: "review", Source: "user", Body: "Review $1 then $2."},
	}}
	return be
}

func TestCustomCommandsExpandIntoAPrompt(t *testing.T) {
	t.Run("/hello world sends the expanded prompt", func(t *testing.T) {
		be := withCommands(newFake(t))
		m := newTestModel(t, be)
		typeText(m, "/hello world")
		drive(m, press("esc"), press("enter"))
		if len(be.runs) != 1 || be.runs[0] != "Say hello to world" {
			t.Fatalf("runs = %q", be.runs)
		}
	})
	t.Run("positional arguments take words", func(t *testing.T) {
		be := withCommands(newFake(t))
		m := newTestModel(t, be)
		typeText(m, `/review "a b" c`)
		drive(m, press("esc"), press("enter"))
		if len(be.runs) != 1 || be.runs[0] != "Review a b then c." {
			t.Fatalf("runs = %q", be.runs)
		}
	})
	t.Run("a built-in command wins over a custom one of its name", func(t *testing.T) {
		be := withCommands(newFake(t))
		m := newTestModel(t, be, tea.WindowSizeMsg{Width: 120, Height: 50})
		typeText(m, "/help")
		drive(m, press("esc"), press("enter"))
		got := screen(m)
		if len(be.runs) != 0 {
			t.Fatalf("/help reached the model: %q", be.runs)
		}
		mustContain(t, got, "Custom commands")
		mustContain(t, got, "/hello")
		mustContain(t, got, "Greets someone")
		mustContain(t, got, "/review")
		if strings.Contains(got, "never replaces") {
			t.Fatalf("the shadowed custom /help is listed:\n%s", got)
		}
	})
	t.Run("the / popup offers custom commands", func(t *testing.T) {
		be := withCommands(newFake(t))
		m := newTestModel(t, be)
		typeText(m, "/he")
		if !containsString(m.popup, "/hello") || !containsString(m.popup, "/help") || countString(m.popup, "/help") != 1 {
			t.Fatalf("popup = %q", m.popup)
		}
	})
	t.Run("a warning about a command file is shown", func(t *testing.T) {
		be := withCommands(newFake(t))
		be.commands.Warnings = []string{"/w/.ptc/commands/bad.md: the front matter is not valid YAML\x1b[2J"}
		m := newTestModel(t, be, tea.WindowSizeMsg{Width: 120, Height: 30})
		typeText(m, "/hello x")
		drive(m, press("esc"), press("enter"))
		got := screen(m)
		mustContain(t, got, "bad.md: the front matter is not valid YAML")
		if strings.Contains(m.View(), "\x1b[2J") {
			t.Fatal("a raw escape from a command file reached the screen")
		}
	})
}

func containsString(list []string, s string) bool { return countString(list, s) > 0 }

func countString(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}
