package tui

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
)

type status int

const (
	statusRunning status = iota
	statusOK
	statusError
	statusCancelled
)

// Caps on what a tool entry keeps: the views show heads, and a session
// can hold thousands of calls.
const (
	maxResultBytes = 64 << 10
	maxLogLines    = 200
)

// toolCall is one call, native or made by a run_code program, with what
// its arguments say in a short form and how it ended. Every string is
// sanitised when stored.
type toolCall struct {
	id, name   string
	start, end int64 // Unix ms; end 0 while running
	status     status

	description, command, path, program string
	plan                                string // exit_plan_mode's plan (markdown)
	mode, justification                 string // a sandbox escalation
	short                               string // a one-line form of the arguments

	result           string
	errCode, errText string
	exitCode         int
	hasExit          bool

	logs     []string
	nested   []*toolCall
	nestedIn *toolCall
	change   *fileChange
	edit     *editArgs // old/new strings of an edit, for a diff without snapshots
	todos    []todo    // todo_write's list, shown as a checklist
}

// editArgs are the parts of a file-changing call's arguments a diff can
// be made from when the file itself was not seen (a resumed session).
type editArgs struct {
	oldText, newText string
	whole            bool // the new text is the whole file (write)
}

func newToolCall(id, name, raw string, at int64) *toolCall {
	c := &toolCall{id: id, name: termsafe.Line(name), start: at}
	c.parseArgs(raw)
	return c
}

// argFields are the argument names the views know, in the order a short
// form prefers them.
var argFields = []string{"command", "file_path", "path", "pattern", "query", "url", "question"}

func (c *toolCall) parseArgs(raw string) {
	var args map[string]any
	if json.Unmarshal([]byte(raw), &args) != nil {
		c.short = termsafe.Clip(raw, 120)
		return
	}
	str := func(k string) string {
		s, _ := args[k].(string)
		return s
	}
	c.description = termsafe.Clip(str("description"), 160)
	c.command = termsafe.String(str("command"))
	c.program = termsafe.String(str("code"))
	if c.name == "exit_plan_mode" {
		c.plan = termsafe.String(str("plan"))
	}
	c.path = termsafe.Line(firstNonEmpty(str("file_path"), str("path")))
	c.mode = termsafe.Line(str("sandbox_permissions"))
	c.justification = termsafe.String(str("justification"))
	switch {
	case c.name == "edit":
		c.edit = &editArgs{oldText: str("old_string"), newText: str("new_string")}
	case c.name == "write":
		c.edit = &editArgs{newText: str("content"), whole: true}
	case c.name == "str_replace_editor" && str("command") == "str_replace":
		c.edit = &editArgs{oldText: str("old_str"), newText: str("new_str")}
	case c.name == "str_replace_editor" && str("command") == "create":
		c.edit = &editArgs{newText: str("file_text"), whole: true}
	}
	c.short = shortArgs(args)
	if c.name == "todo_write" {
		if c.todos = parseTodos(raw); c.todos != nil {
			c.short = todoSummary(c.todos)
		}
	}
}

// shortArgs is a call's arguments on one line: the field that says most
// (command, path, pattern…) when there is one, else compact JSON.
func shortArgs(args map[string]any) string {
	for _, k := range argFields {
		if s, ok := args[k].(string); ok && s != "" {
			out := s
			if k == "pattern" {
				if p, ok := args["path"].(string); ok && p != "" {
					out += " in " + p
				}
			}
			return termsafe.Clip(out, 120)
		}
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		if k != "description" && k != "justification" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		v, _ := json.Marshal(args[k])
		parts = append(parts, k+"="+string(v))
	}
	return termsafe.Clip(strings.Join(parts, " "), 120)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

var exitLine = regexp.MustCompile(`(?m)^\[exit code (-?\d+)\]$`)

// settle records how the call ended.
func (c *toolCall) settle(at int64, isError bool, info *session.ErrorInfo, text string, ch *fileChange) {
	c.end = at
	c.status = statusOK
	if isError {
		c.status = statusError
	}
	if info != nil {
		c.errCode = termsafe.Line(info.Code)
		c.errText = termsafe.String(info.Message)
		if info.Code == "ABORTED" || info.Code == "ABORTED_BEFORE_DISPATCH" {
			c.status = statusCancelled
		}
	}
	if len(text) > maxResultBytes {
		text = text[:maxResultBytes]
	}
	if m := exitLine.FindStringSubmatch(text); m != nil {
		c.exitCode, _ = strconv.Atoi(m[1])
		c.hasExit = true
		text = strings.TrimRight(exitLine.ReplaceAllString(text, ""), "\n")
	} else if c.name == "bash" && !isError {
		c.hasExit = true
	}
	c.result = termsafe.String(text)
	if ch != nil {
		c.change = c.change.merge(ch)
	}
}

func (c *toolCall) addLog(text string) {
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if len(c.logs) >= maxLogLines {
			if len(c.logs) == maxLogLines {
				c.logs = append(c.logs, "…")
			}
			return
		}
		c.logs = append(c.logs, termsafe.Line(l))
	}
}

// duration is how long the call took, or has been running at now.
func (c *toolCall) duration(now int64) string {
	end := c.end
	if end == 0 {
		end = now
	}
	return formatMs(end - c.start)
}

func formatMs(ms int64) string {
	switch {
	case ms < 0:
		return "0ms"
	case ms < 1000:
		return fmt.Sprintf("%dms", ms)
	case ms < 60_000:
		return fmt.Sprintf("%.1fs", float64(ms)/1000)
	}
	return fmt.Sprintf("%dm%02ds", ms/60_000, ms/1000%60)
}

// attachment marks a file attached to a prompt with @path. The model
// reads the content; the transcript shows only the name.
const attachmentOpen = "\n\n<attached-file path="

// splitAttachments separates what the user typed from the files attached
// to it.
func splitAttachments(text string) (string, []string) {
	i := strings.Index(text, attachmentOpen)
	if i < 0 {
		return text, nil
	}
	typed, rest := text[:i], text[i:]
	var files []string
	for {
		j := strings.Index(rest, attachmentOpen)
		if j < 0 {
			break
		}
		rest = rest[j+len(attachmentOpen):]
		var name string
		if end := strings.Index(rest, ">\n"); end >= 0 {
			if q, err := strconv.Unquote(rest[:end]); err == nil {
				name = q
			}
		}
		if name != "" {
			files = append(files, name)
		}
	}
	return typed, files
}
