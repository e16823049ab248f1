package plan

import (
	"strings"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/runtime/session"
)

// Bounds of the todo list taken from a plan.
const (
	maxTodos     = 50
	maxTodoBytes = 300
)

// Todos are a plan's steps as a todo list, all pending: its list items
// (-, *, + or numbered, checkboxes dropped) in order, or, for a plan
// without a list, its title. Items past 50 are left out, long ones cut.
func Todos(plan string) []session.TodoItem {
	var out []session.TodoItem
	title := ""
	for _, line := range strings.Split(plan, "\n") {
		l := strings.TrimSpace(line)
		if title == "" && strings.HasPrefix(l, "#") {
			title = strings.TrimSpace(strings.TrimLeft(l, "#"))
		}
		item, ok := listItem(l)
		if !ok || len(out) == maxTodos {
			continue
		}
		out = append(out, session.TodoItem{Content: clip.String(item, maxTodoBytes), Status: "pending"})
	}
	if len(out) == 0 && title != "" {
		out = append(out, session.TodoItem{Content: clip.String(title, maxTodoBytes), Status: "pending"})
	}
	if out == nil {
		out = []session.TodoItem{}
	}
	return out
}

// listItem is the text of a markdown list item line.
func listItem(l string) (string, bool) {
	rest, ok := "", false
	switch {
	case strings.HasPrefix(l, "- "), strings.HasPrefix(l, "* "), strings.HasPrefix(l, "+ "):
		rest, ok = l[2:], true
	default:
		i := 0
		for i < len(l) && l[i] >= '0' && l[i] <= '9' {
			i++
		}
		if i > 0 && i+1 < len(l) && (l[i] == '.' || l[i] == ')') && l[i+1] == ' ' {
			rest, ok = l[i+2:], true
		}
	}
	if !ok {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	for _, box := range []string{"[ ]", "[x]", "[X]"} {
		rest = strings.TrimSpace(strings.TrimPrefix(rest, box))
	}
	return rest, rest != ""
}
