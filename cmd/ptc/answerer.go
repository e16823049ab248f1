package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/ptc-dev/ptc/cmd/ptc/tui"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// newTerminalAnswerer returns the answerer for approvals and
// ask_user_question: the controlling terminal (/dev/tty, so it works even
// when the prompt is piped on stdin), else stdin/stderr when stdin is a
// terminal, else a headless answerer that makes approvals fail closed.
func newTerminalAnswerer() tools.Answerer {
	if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		return newLineAnswerer(tty, tty)
	}
	if term.IsTerminal(int(os.Stdin.Fd())) {
		return newLineAnswerer(os.Stdin, os.Stderr)
	}
	return headlessAnswerer{}
}

// terminalApprovals is an approval service outside any session (ptc
// tools starting a project's MCP servers), attended by the terminal.
func terminalApprovals() *tools.Approvals {
	a := tools.NewApprovals(tools.PolicyAsk)
	a.Attend(newTerminalAnswerer())
	return a
}

// headlessAnswerer is used when nobody can answer.
type headlessAnswerer struct{}

func (headlessAnswerer) Ask(context.Context, tools.Question) (tools.Reply, error) {
	return tools.Reply{}, tools.ErrNoAnswerer
}

// lineAnswerer asks one question at a time on a line-oriented terminal.
// It reads only while a question is open, so it does not steal input meant
// for the interactive prompt.
type lineAnswerer struct {
	mu  sync.Mutex
	src io.Reader
	in  *bufio.Reader
	out io.Writer
	// settings, once the session is open, says its workspace and mode
	// for the approval prompt.
	settings func() session.Settings
}

// showSettings lets an answerer name the session's workspace and sandbox
// mode in approvals; openApp calls it once the session is open.
func showSettings(a tools.Answerer, settings func() session.Settings) {
	switch x := a.(type) {
	case *lineAnswerer:
		x.mu.Lock()
		x.settings = settings
		x.mu.Unlock()
	case *tui.Answerer:
		showSettings(x.Fallback, settings)
	}
}

func newLineAnswerer(r io.Reader, w io.Writer) *lineAnswerer {
	return &lineAnswerer{src: r, in: bufio.NewReader(r), out: w}
}

// maxTries bounds how often an unreadable answer is asked again before the
// question is treated as denied (approval) or unanswered (question).
const maxTries = 3

func (a *lineAnswerer) Ask(ctx context.Context, q tools.Question) (tools.Reply, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return tools.Reply{}, err // answered elsewhere while queued here
	}
	var answer string
	var err error
	switch q.Kind {
	case tools.KindApproval:
		return a.approval(ctx, q)
	case tools.KindPlan:
		answer, err = a.plan(ctx, q)
	default:
		answer, err = a.question(ctx, q)
	}
	return tools.Reply{Answer: answer, Via: "terminal"}, err
}

// plan shows a plan (exit_plan_mode) as the TUI's dialog does, sanitised,
// and reads the decision: approve, keep planning, or typed feedback (which
// also keeps planning). An unreadable answer never approves.
func (a *lineAnswerer) plan(ctx context.Context, q tools.Question) (string, error) {
	title, plan := tools.DescribePlan(q)
	fmt.Fprintf(a.out, "\n%s:\n\n  %s\n\n", title, strings.ReplaceAll(strings.TrimRight(plan, "\n"), "\n", "\n  "))
	return a.choose(ctx, "Approve? [a] approve and start  [k] keep planning  — or type what to change: ",
		"Please type a, k or what to change.", tools.AnswerKeepPlanning, func(line string) (string, bool) {
			switch strings.ToLower(line) {
			case "":
				return "", false
			case "a", "y", "yes", "approve":
				return tools.AnswerApprovePlan, true
			case "k", "n", "no", "keep", "keep planning", tools.AnswerKeepPlanning:
				return tools.AnswerKeepPlanning, true
			}
			return line, true
		})
}

// choose asks prompt until pick accepts the line read (saying again
// after each line it does not), up to maxTries; then it gives fallback.
func (a *lineAnswerer) choose(ctx context.Context, prompt, again, fallback string, pick func(string) (string, bool)) (string, error) {
	for range maxTries {
		fmt.Fprint(a.out, prompt)
		line, err := a.readLine(ctx)
		if err != nil {
			return "", err
		}
		if answer, ok := pick(line); ok {
			return answer, nil
		}
		fmt.Fprintln(a.out, again)
	}
	return fallback, nil
}

// lineWidth is the width the line prompt lays approvals out for: the
// terminal's when known, else 80.
const lineWidth = 80

// approval shows what would run and where (tools.DescribeApproval: the
// mode first and last, the whole command with every character visible,
// the model's justification clipped), wrapped to the terminal's width so
// no value can push the mode lines out of sight, then reads the answer.
// An escalation may be allowed for the session by a pattern the user
// types instead of the exact command.
func (a *lineAnswerer) approval(ctx context.Context, q tools.Question) (tools.Reply, error) {
	var workspace, mode string
	if a.settings != nil {
		s := a.settings()
		workspace, mode = s.Workspace, s.Sandbox
	}
	title, fields := tools.DescribeApproval(q, workspace, mode)
	fmt.Fprintf(a.out, "\nptc asks: %s\n", title)
	for _, l := range approvalLines(fields, a.width()) {
		fmt.Fprintln(a.out, l)
	}
	pattern := q.Grant != nil && q.Grant.Mode != ""
	prompt, again := "Allow? [a] once  [s] for this session  [d] deny: ", "Please type a, s or d."
	if pattern {
		prompt, again = "Allow? [a] once  [s] for this session  [p] session, by pattern  [d] deny: ", "Please type a, s, p or d."
	}
	answer, err := a.choose(ctx, prompt, again, tools.AnswerDeny, func(line string) (string, bool) {
		switch strings.ToLower(line) {
		case "a", "y", "yes", "allow", "once":
			return tools.AnswerAllowOnce, true
		case "s", "session", "always":
			return tools.AnswerAllowSession, true
		case "p", "pattern":
			return "pattern", pattern
		case "d", "n", "no", "deny":
			return tools.AnswerDeny, true
		}
		return "", false
	})
	if err != nil || answer != "pattern" {
		return tools.Reply{Answer: answer, Via: "terminal"}, err
	}
	return a.pattern(ctx, q)
}

// pattern reads the pattern a session grant for an escalation covers; it
// must match the command shown. Anything unreadable denies.
func (a *lineAnswerer) pattern(ctx context.Context, q tools.Question) (tools.Reply, error) {
	fmt.Fprintln(a.out, "A pattern is the command with * where any text may stand (never ; & | < > ` $ ( ) or a line break).")
	for range maxTries {
		fmt.Fprint(a.out, "Pattern: ")
		line, err := a.readLine(ctx)
		if err != nil {
			return tools.Reply{}, err
		}
		switch err := tools.CheckPattern(line); {
		case err != nil:
			fmt.Fprintf(a.out, "Not a pattern: %v.\n", err)
		case !tools.MatchPattern(line, q.Grant.Command):
			fmt.Fprintln(a.out, "That pattern does not match the command shown.")
		default:
			fmt.Fprintf(a.out, "Allowed for this session: %s.\n", termsafe.Visible(line))
			return tools.Reply{Answer: tools.AnswerAllowSession, Pattern: line, Via: "terminal"}, nil
		}
	}
	return tools.Reply{Answer: tools.AnswerDeny, Via: "terminal"}, nil
}

// approvalLines lays fields out as labelled rows of at most width
// columns: the label in a column of its own, each value wrapped below it.
func approvalLines(fields []tools.Field, width int) []string {
	const indent = "  "
	labelW := 0
	for _, f := range fields {
		labelW = max(labelW, len(f.Label))
	}
	pad := strings.Repeat(" ", len(indent)+labelW+1)
	var lines []string
	for _, f := range fields {
		for i, row := range termsafe.Wrap(f.Value, width-len(pad)) {
			if i == 0 {
				lines = append(lines, fmt.Sprintf("%s%-*s %s", indent, labelW, f.Label, row))
			} else {
				lines = append(lines, pad+row)
			}
		}
	}
	return lines
}

// width is the terminal's width, or lineWidth when it is not known.
func (a *lineAnswerer) width() int {
	if f, ok := a.out.(interface{ Fd() uintptr }); ok {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w >= 40 {
			return w
		}
	}
	return lineWidth
}

func (a *lineAnswerer) question(ctx context.Context, q tools.Question) (string, error) {
	fmt.Fprintf(a.out, "\nQuestion from the agent: %s\n", termsafe.String(q.Text))
	for i, o := range q.Options {
		fmt.Fprintf(a.out, "  %d) %s\n", i+1, termsafe.Line(o))
	}
	prompt := "Answer: "
	if len(q.Options) > 0 {
		prompt = "Answer (a number or your own words): "
	}
	for range maxTries {
		fmt.Fprint(a.out, prompt)
		line, err := a.readLine(ctx)
		if err != nil {
			return "", err
		}
		if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(q.Options) {
			return q.Options[n-1], nil
		}
		if line != "" {
			return line, nil
		}
	}
	return "", errors.New("the user gave no answer")
}

// readLine reads one line; when the source supports deadlines (a tty), a
// cancelled ctx interrupts the read. End of input means nobody is there.
func (a *lineAnswerer) readLine(ctx context.Context) (string, error) {
	if d, ok := a.src.(interface{ SetReadDeadline(time.Time) error }); ok {
		stop := context.AfterFunc(ctx, func() { _ = d.SetReadDeadline(time.Now()) })
		defer func() {
			if !stop() {
				_ = d.SetReadDeadline(time.Time{})
			}
		}()
	}
	line, err := a.in.ReadString('\n')
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if err != nil && line == "" {
		if errors.Is(err, io.EOF) {
			return "", tools.ErrNoAnswerer
		}
		return "", err
	}
	return strings.TrimSpace(line), nil
}
