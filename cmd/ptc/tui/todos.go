package tui

import (
	"encoding/json"
	"fmt"

	"github.com/ptc-dev/ptc/internal/termsafe"
)

// todo is one item of a todo_write call, as its checklist shows it.
type todo struct{ content, status string }

// maxTodos bounds the items a checklist shows.
const maxTodos = 50

// parseTodos reads todo_write's list from its raw arguments (nil when
// they hold none).
func parseTodos(raw string) []todo {
	var args struct {
		Todos []struct {
			Content string `json:"content"`
			Status  string `json:"status"`
		} `json:"todos"`
	}
	if json.Unmarshal([]byte(raw), &args) != nil {
		return nil
	}
	out := make([]todo, 0, len(args.Todos))
	for _, t := range args.Todos {
		out = append(out, todo{content: termsafe.Line(t.Content), status: t.Status})
	}
	return out
}

// todoSummary is a list in a few words: "— 3 items, 1 done".
func todoSummary(todos []todo) string {
	done := 0
	for _, t := range todos {
		if t.status == "completed" {
			done++
		}
	}
	return fmt.Sprintf("— %d item(s), %d done", len(todos), done)
}

// checklist renders the list under its call: ☐ pending, ◐ in progress,
// ☑ completed.
func (r *renderer) checklist(todos []todo, indent string) []string {
	var out []string
	for i, t := range todos {
		if i == maxTodos {
			out = append(out, r.fit(indent+r.th.dim.Render(fmt.Sprintf("… %d more", len(todos)-maxTodos))))
			break
		}
		mark, st := "☐ ", r.th.dim
		switch t.status {
		case "in_progress":
			mark, st = "◐ ", r.th.running
		case "completed":
			mark, st = "☑ ", r.th.ok
		}
		out = append(out, r.fit(indent+st.Render(mark+t.content)))
	}
	return out
}
