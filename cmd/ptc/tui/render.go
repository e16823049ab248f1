package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/ptc-dev/ptc/internal/termsafe"
)

// How much of a collapsed entry shows; ctrl+o expands every tool entry,
// ctrl+t every reasoning block.
const (
	collapsedProgram = 4
	collapsedResult  = 4
	collapsedDiff    = 24
	expandedLines    = 400
	streamingReason  = 3
)

// renderer draws entries for one width and toggle state.
type renderer struct {
	th            theme
	md            *markdown
	width         int
	now           int64 // Unix ms, for durations of running calls
	expandTools   bool
	showReasoning bool
}

func (r *renderer) key() string {
	return fmt.Sprintf("%d/%t/%t", r.width, r.expandTools, r.showReasoning)
}

// entry renders one entry; finished entries are cached per toggle state
// and width (streaming text and running calls are drawn every time).
func (r *renderer) entry(e *entry) string {
	live := e.streaming || e.kind == kindTool && e.tool.running()
	if !live && e.cacheKey == r.key() {
		return e.rendered
	}
	var out string
	switch e.kind {
	case kindUser:
		out = r.user(e)
	case kindAssistant:
		out = r.md.render(streamingTail(e), r.width)
	case kindReasoning:
		out = r.reasoning(e)
	case kindTool:
		out = strings.Join(r.tool(e.tool, 0), "\n")
	case kindNotice:
		out = r.notice(e)
	}
	if !live {
		e.rendered, e.cacheKey = out, r.key()
	}
	return out
}

func (c *toolCall) running() bool {
	if c.status == statusRunning {
		return true
	}
	for _, n := range c.nested {
		if n.running() {
			return true
		}
	}
	return false
}

func (r *renderer) fit(s string) string { return ansi.Truncate(s, r.width, "…") }

func (r *renderer) wrap(s string, indent int) []string {
	w := max(r.width-indent, 10)
	return strings.Split(ansi.Wrap(s, w, ""), "\n")
}

// A prompt of more than foldPrompt lines (a large paste) shows its first
// foldHead lines and how many there are, until ctrl+o expands it.
const (
	foldPrompt = 12
	foldHead   = 3
)

func (r *renderer) user(e *entry) string {
	var lines []string
	text, folded := e.text, 0
	if all := strings.Split(text, "\n"); len(all) > foldPrompt && !r.expandTools {
		text, folded = strings.Join(all[:foldHead], "\n"), len(all)
	}
	for i, l := range r.wrap(text, 2) {
		prefix := "  "
		if i == 0 {
			prefix = r.th.accent.Render("›") + " "
		}
		lines = append(lines, prefix+r.th.user.Render(l))
	}
	if folded > 0 {
		lines = append(lines, r.fit("  "+r.th.dim.Render(fmt.Sprintf("[pasted %d lines] · ctrl+o expands", folded))))
	}
	for _, f := range e.attached {
		lines = append(lines, r.fit("  "+r.th.dim.Render("+ attached "+f)))
	}
	return strings.Join(lines, "\n")
}

func (r *renderer) reasoning(e *entry) string {
	lines := strings.Split(strings.TrimSpace(e.text), "\n")
	switch {
	case r.showReasoning:
	case e.streaming:
		if len(lines) > streamingReason {
			lines = lines[len(lines)-streamingReason:]
		}
	default:
		return r.th.reasoning.Render(fmt.Sprintf("∴ thought for %d line(s) · ctrl+t shows the reasoning", len(lines)))
	}
	var out []string
	for _, l := range lines {
		for _, w := range r.wrap(l, 2) {
			out = append(out, r.th.reasoning.Render("∴ "+w))
		}
	}
	return strings.Join(out, "\n")
}

func (r *renderer) notice(e *entry) string {
	st := r.th.dim
	switch e.tone {
	case toneWarn:
		st = r.th.warn
	case toneError:
		st = r.th.fail
	}
	var out []string
	for _, l := range strings.Split(e.text, "\n") {
		for _, w := range r.wrap(l, 2) {
			prefix := "  "
			if len(out) == 0 {
				prefix = "· "
			}
			out = append(out, st.Render(prefix+w))
		}
	}
	return strings.Join(out, "\n")
}

// tool renders a call and, under it, what it did: a program's source and
// nested calls, a command's output head and exit code, a file diff.
// depth is 0 for a call of the model, 1 for a call its program made.
func (r *renderer) tool(c *toolCall, depth int) []string {
	lines := []string{r.header(c, depth)}
	body := strings.Repeat("  ", depth+1)
	if c.name == "run_code" && c.program != "" {
		lines = append(lines, r.program(c.program, body)...)
	}
	if c.plan != "" {
		lines = append(lines, "")
		for _, l := range strings.Split(r.md.render(c.plan, r.width-len(body)), "\n") {
			lines = append(lines, body+l)
		}
	}
	if len(c.todos) > 0 {
		lines = append(lines, r.checklist(c.todos, body)...)
	}
	for _, n := range c.nested {
		lines = append(lines, r.tool(n, depth+1)...)
	}
	if c.status == statusRunning && len(c.logs) > 0 {
		lines = append(lines, r.clipped(c.logs, body+"│ ", collapsedResult, r.th.dim, true)...)
	}
	if d := r.diff(c, body); d != nil {
		lines = append(lines, d...)
	} else if c.status != statusRunning && (len(c.todos) == 0 || c.status != statusOK) {
		// (a todo list that was taken says nothing its checklist does not)
		lines = append(lines, r.outcome(c, body, depth > 0)...)
	}
	return lines
}

func (r *renderer) header(c *toolCall, depth int) string {
	icon, st := "⋯", r.th.running
	switch c.status {
	case statusOK:
		icon, st = "✓", r.th.ok
	case statusError:
		icon, st = "✗", r.th.fail
	case statusCancelled:
		icon, st = "⊘", r.th.warn
	}
	if c.status == statusOK && c.hasExit && c.exitCode != 0 {
		icon, st = "✗", r.th.fail
	}
	what := c.what()
	right := icon + " " + c.duration(r.now)
	if c.hasExit && c.status != statusRunning {
		right = icon + fmt.Sprintf(" exit %d · ", c.exitCode) + c.duration(r.now)
	}
	bullet := "⏺ "
	if depth > 0 {
		bullet = strings.Repeat("  ", depth) + "↳ "
	}
	left := bullet + r.th.tool.Render(c.name) + " " + what
	room := r.width - ansi.StringWidth(right) - 2
	left = ansi.Truncate(left, max(room, 10), "…")
	pad := max(r.width-ansi.StringWidth(left)-ansi.StringWidth(right), 1)
	return left + strings.Repeat(" ", pad) + st.Render(right)
}

// what is the call's arguments in a few words: a program's description,
// a command line, a path, a pattern; with the wider sandbox mode a call
// asks for.
func (c *toolCall) what() string {
	what := c.short
	switch {
	case c.plan != "":
		what = "— the plan below waits for your approval"
	case (c.name == "run_code" || c.name == "workflow") && c.description != "":
		what = "— " + c.description
	case c.name == "bash" && c.command != "":
		what = "$ " + termsafe.Line(strings.SplitN(c.command, "\n", 2)[0])
	}
	if c.mode != "" {
		what += "  [" + c.mode + "]"
	}
	return what
}

// CallSummary is a call on one line as the TUI shows it: the tool's name
// and what its arguments say ("bash $ go test ./...", "run_code — survey
// the workspace", "read main.go"), sanitised. ptc run's text output uses
// it too.
func CallSummary(name, rawArgs string) string {
	c := newToolCall("", name, rawArgs, 0)
	return c.name + " " + c.what()
}

func (r *renderer) program(src, indent string) []string {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	return r.clipped(lines, indent+"┃ ", collapsedProgram, r.th.program, false)
}

// clipped shows lines under a prefix: all when tools are expanded (up to
// expandedLines), else the first n (or the last n when tail).
func (r *renderer) clipped(lines []string, prefix string, n int, st interface{ Render(...string) string }, tail bool) []string {
	limit := n
	if r.expandTools {
		limit = expandedLines
	}
	shown, more := lines, 0
	if len(lines) > limit {
		more = len(lines) - limit
		if tail {
			shown = lines[len(lines)-limit:]
		} else {
			shown = lines[:limit]
		}
	}
	// A result marks only its first line; the rest stay aligned under it.
	cont := prefix
	if p, ok := strings.CutSuffix(prefix, "⎿ "); ok {
		cont = p + "  "
	}
	var out []string
	for i, l := range shown {
		p := prefix
		if i > 0 {
			p = cont
		}
		out = append(out, r.fit(p+st.Render(strings.ReplaceAll(l, "\t", "    "))))
	}
	if more > 0 {
		hint := fmt.Sprintf("… %d more line(s) · ctrl+o expands", more)
		if r.expandTools {
			hint = fmt.Sprintf("… %d more line(s)", more)
		}
		out = append(out, r.fit(cont+r.th.dim.Render(hint)))
	}
	return out
}

// outcome is what a settled call returned: the error, or the head of the
// result.
func (r *renderer) outcome(c *toolCall, indent string, nested bool) []string {
	if c.status == statusError || c.status == statusCancelled {
		msg := c.errText
		if msg == "" {
			msg = c.result
		}
		text := strings.TrimSpace(msg)
		if c.errCode != "" {
			text = strings.TrimSpace(c.errCode + ": " + msg)
		}
		if text == "" {
			return nil
		}
		return r.clipped(strings.Split(text, "\n"), indent+"⎿ ", 3, r.th.fail, false)
	}
	if nested && !r.expandTools {
		return nil // a nested call's result is its program's business
	}
	res := strings.TrimRight(c.result, "\n")
	if res == "" {
		return nil
	}
	return r.clipped(strings.Split(res, "\n"), indent+"⎿ ", collapsedResult, r.th.dim, false)
}

// diff renders a file-changing call as a coloured unified diff: from the
// tracker's snapshots when it saw the file, else from the call's own
// arguments (a resumed session). nil when there is nothing to show.
func (r *renderer) diff(c *toolCall, indent string) []string {
	if c.status != statusOK {
		return nil
	}
	var lines []diffLine
	note := ""
	switch ch := c.change; {
	case ch != nil && ch.hasBefore && ch.hasAfter:
		lines = unifiedDiff(ch.before, ch.after)
		if len(lines) == 0 {
			note = "no change"
		}
	case c.edit != nil && !c.edit.whole:
		lines = unifiedDiff(c.edit.oldText, c.edit.newText)
	case c.edit != nil && c.edit.whole && strings.HasPrefix(c.result, "Created"):
		lines = unifiedDiff("", c.edit.newText)
	case ch != nil && ch.note != "":
		note = ch.note
	default:
		return nil
	}
	var out []string
	if note != "" {
		return append(out, r.fit(indent+r.th.dim.Render("("+note+")")))
	}
	limit := collapsedDiff
	if r.expandTools {
		limit = expandedLines
	}
	for i, l := range lines {
		if i == limit {
			out = append(out, r.fit(indent+r.th.dim.Render(fmt.Sprintf("… %d more diff line(s) · ctrl+o expands", len(lines)-limit))))
			break
		}
		text := termsafeDiff(l.text)
		switch l.kind {
		case '@':
			out = append(out, r.fit(indent+r.th.hunk.Render(text)))
		case '+':
			out = append(out, r.fit(indent+r.th.added.Render("+"+text)))
		case '-':
			out = append(out, r.fit(indent+r.th.removed.Render("-"+text)))
		default:
			out = append(out, r.fit(indent+" "+text))
		}
	}
	return out
}

// termsafeDiff makes a line of file content printable: tabs as spaces,
// every control or bidi character escaped.
func termsafeDiff(s string) string {
	return termsafe.Line(strings.ReplaceAll(s, "\t", "    "))
}

func (r *renderer) fitTo(s string, w int) string { return ansi.Truncate(s, w, "…") }

// maxStreamingMarkdown bounds what is re-rendered on every redraw of an
// answer still streaming: a huge answer would otherwise cost its whole
// length per chunk. Only its last part shows until it is complete.
const maxStreamingMarkdown = 24 << 10

func streamingTail(e *entry) string {
	if !e.streaming || len(e.text) <= maxStreamingMarkdown {
		return e.text
	}
	tail := e.text[len(e.text)-maxStreamingMarkdown:]
	if i := strings.Index(tail, "\n\n"); i >= 0 {
		tail = tail[i+2:]
	}
	return "*(…the beginning shows when the answer is complete)*\n\n" + tail
}
