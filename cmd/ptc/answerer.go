package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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

// headlessAnswerer is used when nobody can answer.
type headlessAnswerer struct{}

func (headlessAnswerer) Ask(context.Context, tools.Question) (string, error) {
	return "", tools.ErrNoAnswerer
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

func (a *lineAnswerer) Ask(ctx context.Context, q tools.Question) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch q.Kind {
	case tools.KindApproval:
		return a.approval(ctx, q)
	case tools.KindPlan:
		return a.plan(ctx, q)
	}
	return a.question(ctx, q)
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

// approval shows what would run and where (the same fields as the TUI's
// dialog, every value sanitised: a justification or a tool name cannot
// move the cursor or redraw the prompt), then reads the answer.
func (a *lineAnswerer) approval(ctx context.Context, q tools.Question) (string, error) {
	var workspace, mode string
	if a.settings != nil {
		s := a.settings()
		workspace, mode = s.Workspace, s.Sandbox
	}
	title, fields := tools.DescribeApproval(q, workspace, mode)
	fmt.Fprintf(a.out, "\nptc wants to run %s (%s):\n", termsafe.Line(q.Tool), title)
	for _, f := range fields {
		fmt.Fprintf(a.out, "  %-10s %s\n", f.Label, strings.ReplaceAll(f.Value, "\n", "\n             "))
	}
	fmt.Fprintf(a.out, "  arguments:\n%s\n", termsafe.String(indentArgs(q.Args)))
	return a.choose(ctx, "Allow? [a] once  [s] for this session  [d] deny: ", "Please type a, s or d.", tools.AnswerDeny,
		func(line string) (string, bool) {
			switch strings.ToLower(line) {
			case "a", "y", "yes", "allow", "once":
				return tools.AnswerAllowOnce, true
			case "s", "session", "always":
				return tools.AnswerAllowSession, true
			case "d", "n", "no", "deny":
				return tools.AnswerDeny, true
			}
			return "", false
		})
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

// indentArgs shows the raw arguments as indented JSON, clipped to a
// screenful.
func indentArgs(raw string) string {
	var b bytes.Buffer
	if json.Indent(&b, []byte(raw), "  ", "  ") != nil {
		b.Reset()
		b.WriteString(raw)
	}
	s := "  " + b.String()
	if len(s) > 2000 {
		s = s[:2000] + "\n  … (arguments clipped)"
	}
	return s
}
