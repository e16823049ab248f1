package acp

import (
	"encoding/json"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ptc-dev/ptc/internal/termsafe"
)

// titleMax bounds a tool call's title in bytes: an editor shows it on one
// line.
const titleMax = 120

// kindOf is the ACP kind of a ptc tool, which an editor uses for its icon
// and grouping; tools it does not know are "other".
func kindOf(name string) sdk.ToolKind {
	switch name {
	case "read", "skill", "job_output", "agent_output", "terminal_read", "job_list", "agent_list", "terminal_list", "get_goal":
		return sdk.ToolKindRead
	case "write", "edit", "str_replace_editor":
		return sdk.ToolKindEdit
	case "glob", "grep":
		return sdk.ToolKindSearch
	case "bash", "shell", "run_code", "terminal_open", "terminal_send", "terminal_signal", "terminal_close", "job_kill":
		return sdk.ToolKindExecute
	case "web_fetch", "fetch", "web_search":
		return sdk.ToolKindFetch
	case "todo_write", "ask_user_question", "create_goal", "update_goal":
		return sdk.ToolKindThink
	case "exit_plan_mode":
		return sdk.ToolKindSwitchMode
	}
	return sdk.ToolKindOther
}

// args is a call's arguments as the model sent them, decoded when they
// are a JSON object (nil otherwise: the runner reports them as invalid).
type args map[string]any

func parseArgs(raw string) args {
	var a args
	if json.Unmarshal([]byte(raw), &a) != nil {
		return nil
	}
	return a
}

func (a args) str(k string) string {
	s, _ := a[k].(string)
	return s
}

// rawInput is what a client gets as rawInput: the decoded object, or the
// raw string when it is not one.
func rawInput(raw string, a args) any {
	if a != nil {
		return a
	}
	return raw
}

// titleOf is a short line saying what a call does ("bash: go test ./...",
// "edit /ws/main.go"), sanitised and clipped.
func titleOf(name string, a args) string {
	var detail string
	switch name {
	case "bash", "shell":
		detail = a.str("description")
		if detail == "" {
			detail = a.str("command")
		}
	case "read", "write", "edit":
		detail = a.str("file_path")
	case "str_replace_editor":
		detail = a.str("command") + " " + a.str("path")
	case "grep", "glob":
		detail = a.str("pattern")
	case "run_code":
		detail = firstLine(a.str("code"))
	case "subagent":
		detail = a.str("description")
	case "web_fetch", "fetch":
		detail = a.str("url")
	}
	if strings.TrimSpace(detail) == "" {
		return termsafe.Clip(name, titleMax)
	}
	return termsafe.Clip(name+": "+detail, titleMax)
}

// nestedTitle is the title of a call a run_code program made: the call as
// the program wrote it, name(arguments).
func nestedTitle(name, raw string) string {
	return termsafe.Clip(name+"("+raw+")", titleMax)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// pathOf is the file a call works on, absolute (relative paths are the
// workspace's), or "" for none.
func pathOf(name string, a args, workspace string) string {
	p := a.str("file_path")
	if name == "str_replace_editor" || (p == "" && (name == "grep" || name == "glob")) {
		p = a.str("path")
	}
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(workspace, p)
	}
	return filepath.Clean(p)
}

// locations are the call's file, for an editor's follow-along.
func locations(name string, a args, workspace string) []sdk.ToolCallLocation {
	p := pathOf(name, a, workspace)
	if p == "" {
		return nil
	}
	loc := sdk.ToolCallLocation{Path: p}
	if n, ok := a["offset"].(float64); ok && n >= 1 && n < 1<<31 {
		line := int(n)
		loc.Line = &line
	}
	return []sdk.ToolCallLocation{loc}
}

// diffOf is the change a file-changing call makes, from its own arguments
// (edit: the old and new text; write: the whole new file), so nothing is
// read from the host outside the sandbox to show it.
func diffOf(name string, a args, workspace string) (sdk.ToolCallContent, bool) {
	p := pathOf(name, a, workspace)
	if p == "" {
		return sdk.ToolCallContent{}, false
	}
	switch {
	case name == "edit":
		return sdk.ToolDiffContent(p, a.str("new_string"), a.str("old_string")), true
	case name == "write":
		return sdk.ToolDiffContent(p, a.str("content")), true
	case name == "str_replace_editor" && a.str("command") == "str_replace":
		return sdk.ToolDiffContent(p, a.str("new_str"), a.str("old_str")), true
	case name == "str_replace_editor" && a.str("command") == "create":
		return sdk.ToolDiffContent(p, a.str("file_text")), true
	}
	return sdk.ToolCallContent{}, false
}
