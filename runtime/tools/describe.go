package tools

import (
	"encoding/json"

	"github.com/ptc-dev/ptc/internal/termsafe"
)

// Field is one labelled line of an approval: what will run and where.
type Field struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// DescribeApproval says exactly what an approval allows: the tool, the
// sandbox mode it would run in (an escalation names the wider mode and
// the mode in force), the workspace, the command or path, and the reason
// given. Every value is sanitised: a justification with escape sequences
// shows them escaped instead of drawing on a terminal. Every front end
// (the TUI dialog, the line-mode prompt, the web UI's card) shows these
// fields, so a person sees the same thing wherever they answer.
func DescribeApproval(q Question, workspace, mode string) (title string, fields []Field) {
	var args map[string]any
	_ = json.Unmarshal([]byte(q.Args), &args)
	str := func(k string) string {
		s, _ := args[k].(string)
		return s
	}
	tool := termsafe.Line(q.Tool)
	title = tool + " needs your approval"
	add := func(label, v string) {
		if v != "" {
			fields = append(fields, Field{label, v})
		}
	}
	want := str("sandbox_permissions")
	switch {
	case want != "":
		title = tool + " asks to run outside its sandbox mode"
		add("mode", termsafe.Line(want)+"  (now "+termsafe.Line(mode)+")")
	case mode != "":
		add("mode", termsafe.Line(mode))
	}
	if want == "danger-full-access" {
		add("where", "on the host, unconfined (no sandbox)")
	}
	add("workspace", termsafe.Line(workspace))
	add("command", termsafe.String(str("command")))
	path := str("file_path")
	if path == "" {
		path = str("path")
	}
	add("path", termsafe.Line(path))
	if str("command") == "" && path == "" && q.Args != "" {
		add("arguments", termsafe.Clip(q.Args, 400))
	}
	add("reason", termsafe.String(str("justification")))
	if str("justification") == "" && q.Text != "" {
		add("asks", termsafe.String(q.Text))
	}
	return title, fields
}

// DescribePlan is what a plan approval (exit_plan_mode) shows: a title
// saying what approving does, and the plan as the agent wrote it,
// sanitised (markdown left as text, for the front end to render).
func DescribePlan(q Question) (title, plan string) {
	return "The agent's plan — approve it to leave plan mode and start the work", termsafe.String(q.Text)
}
