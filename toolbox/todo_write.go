package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// TodoWriteName is the tool's wire name.
const TodoWriteName = "todo_write"

// TodoList is both the input and the output of todo_write.
type TodoList struct {
	Todos []session.TodoItem `json:"todos"`
}

const todoItemSchema = `{
	"type": "object",
	"properties": {
		"content": {"type": "string", "minLength": 1, "description": "What to do, as a short imperative sentence."},
		"status": {"type": "string", "enum": ["pending", "in_progress", "completed"]},
		"priority": {"type": "string", "enum": ["high", "medium", "low"]}
	},
	"required": ["content", "status"],
	"additionalProperties": false
}`

const todoListSchema = `{
	"type": "object",
	"properties": {
		"todos": {"type": "array", "items": ` + todoItemSchema + `, "description": "The complete new list."}
	},
	"required": ["todos"],
	"additionalProperties": false
}`

// TodoWrite returns the todo_write tool: a whole-list replace that logs
// todo/write through the Env's Sink and returns the list. It is not
// concurrency-safe: two writes in one step must apply in order.
func TodoWrite() tools.Tool {
	spec := tools.Spec{
		Name:         TodoWriteName,
		Description:  doc(TodoWriteName),
		InputSchema:  json.RawMessage(todoListSchema),
		OutputSchema: json.RawMessage(todoListSchema),
	}
	return tools.New(spec, writeTodos, tools.WithRenderer(renderTodos))
}

func writeTodos(ctx context.Context, call tools.Call, in TodoList) (TodoList, error) {
	if in.Todos == nil {
		in.Todos = []session.TodoItem{}
	}
	if sink := tools.EnvFrom(ctx).Sink; sink != nil {
		if err := sink.Emit(session.TypeTodoWrite, session.TodoWrite{CallID: call.ID, Todos: in.Todos}); err != nil {
			return TodoList{}, fmt.Errorf("the todo list could not be saved: %w", err)
		}
	}
	return in, nil
}

var todoMarks = map[string]string{"pending": "[ ]", "in_progress": "[~]", "completed": "[x]"}

// renderTodos shows the list as a checklist the model can read at a glance.
func renderTodos(v any) string {
	list, ok := v.(TodoList)
	if !ok {
		return tools.RenderValue(v)
	}
	if len(list.Todos) == 0 {
		return "Todo list cleared."
	}
	var b strings.Builder
	b.WriteString("Todo list updated:")
	for _, t := range list.Todos {
		fmt.Fprintf(&b, "\n%s %s", todoMarks[t.Status], t.Content)
		if t.Priority != "" {
			fmt.Fprintf(&b, " (%s)", t.Priority)
		}
	}
	return b.String()
}
