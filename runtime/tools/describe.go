package tools

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/internal/termsafe"
)

// Field is one labelled line of an approval: what will run and where.
type Field struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// MaxJustification bounds how much of the model's justification an
// approval shows (after escaping): enough for a reason, too little to
// push the rest of the approval off a screen.
const MaxJustification = 200

// maxArguments bounds the raw arguments shown for a tool that has no
// command or path to show.
const maxArguments = 2000

// DescribeApproval says exactly what an approval allows, in an order no
// argument can spoof: the sandbox mode first (with UNCONFINED when the
// call leaves every sandbox), the workspace, the whole command or path
// (termsafe.Visible: every character shows, runs of spaces as a counted
// marker, nothing cut), the justification clipped and labelled as the
// model's words, what an allow for the session covers, and the mode line
// again last, so it is on screen next to the prompt however long the
// command. The workspace and mode in force come from q, else from the
// arguments (the front end's session settings). Every value is one safe
// line for the front end to wrap (termsafe.Wrap); the TUI dialog, the
// line-mode prompt and the web UI's card all show these fields.
func DescribeApproval(q Question, workspace, mode string) (title string, fields []Field) {
	var args map[string]any
	_ = json.Unmarshal([]byte(q.Args), &args)
	str := func(k string) string {
		s, _ := args[k].(string)
		return s
	}
	if q.Workspace != "" {
		workspace = q.Workspace
	}
	modeLine, title := approvalMode(q, mode)
	add := func(label, v string) {
		if v != "" {
			fields = append(fields, Field{label, v})
		}
	}
	add("mode", modeLine)
	add("workspace", termsafe.Visible(workspace))
	add("command", termsafe.Visible(str("command")))
	path := str("file_path")
	if path == "" {
		path = str("path")
	}
	add("path", termsafe.Visible(path))
	if str("command") == "" && path == "" && q.Args != "" {
		add("arguments", clipVisible(q.Args, maxArguments))
	}
	why := q.Justification
	if why == "" {
		why = str("justification")
	}
	if why != "" {
		add("model says", "“"+clipVisible(why, MaxJustification)+"” (the model's words, not checked)")
	} else if q.Text != "" {
		add("asks", clipVisible(q.Text, MaxJustification*2))
	}
	if q.Grant != nil {
		add("session", "allowing for the session covers "+grantScope(q))
	}
	if len(fields) > 1 && modeLine != "" {
		add("mode", modeLine)
	}
	return termsafe.Line(title), fields
}

// approvalMode is the mode line and the title of an approval: the mode
// the call runs in if allowed (q.Mode, else the mode in force), the mode
// in force when they differ, and UNCONFINED when it leaves every sandbox.
func approvalMode(q Question, inForce string) (line, title string) {
	tool := termsafe.Line(q.Tool)
	want := q.Mode
	if want == "" {
		want = inForce
	}
	now := ""
	if q.Current != "" && q.Current != want {
		now = " (now " + termsafe.Line(q.Current) + ")"
	}
	switch {
	case q.Unconfined && q.Mode == "": // not a sandbox mode (an MCP server)
		return "UNCONFINED, on the host, no sandbox", tool + " asks to run UNCONFINED on the host"
	case q.Unconfined:
		return termsafe.Line(want) + ", UNCONFINED: no sandbox" + now, tool + " asks to run UNCONFINED on the host"
	case now != "":
		return termsafe.Line(want) + now, tool + " asks to run outside its sandbox mode"
	}
	return termsafe.Line(want), tool + " needs your approval"
}

// grantScope says what an allow for the session of q covers.
func grantScope(q Question) string {
	g := q.Grant
	switch {
	case g.Mode == "":
		return "every call of " + termsafe.Line(g.Tool) + " that needs approval"
	case g.Pattern != "":
		return fmt.Sprintf("%s in %s for commands matching %s", termsafe.Line(g.Tool), termsafe.Line(g.Mode), termsafe.Visible(g.Pattern))
	}
	return fmt.Sprintf("%s in %s for exactly this %s, nothing else", termsafe.Line(g.Tool), termsafe.Line(g.Mode), subjectWord(q))
}

// subjectWord is what an escalation's grant covers, in a word.
func subjectWord(q Question) string {
	if strings.Contains(q.Args, `"command"`) {
		return "command"
	}
	return "path"
}

// clipVisible is termsafe.Visible cut to at most n bytes (clip.String),
// saying how much was left out.
func clipVisible(s string, n int) string {
	v := termsafe.Visible(s)
	c := clip.String(v, n)
	if c == v {
		return v
	}
	return c + fmt.Sprintf(" (%d more bytes, clipped)", len(v)-len(c)+len(clip.Ellipsis))
}

// DescribePlan is what a plan approval (exit_plan_mode) shows: a title
// saying what approving does, and the plan as the agent wrote it,
// sanitised (markdown left as text, for the front end to render).
func DescribePlan(q Question) (title, plan string) {
	return "The agent's plan — approve it to leave plan mode and start the work", termsafe.String(q.Text)
}
