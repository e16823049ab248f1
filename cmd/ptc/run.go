package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ptc-dev/ptc/cmd/ptc/tui"
	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/slash"
)

// newRunCmd is `ptc run`: one turn, headless.
func newRunCmd() *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "run [flags] [PROMPT]",
		Short: "Run one turn headless (the prompt comes from the argument or stdin)",
		Long: `Run one turn headless: the prompt is the argument, or all of stdin. The answer and the
tool activity print as text (commands and the head of each result), or as one JSON object
(--output json) or a JSON line per event (--output stream-json). The session is kept;
--resume ID continues it. For the interactive session run ptc with no command.

Exit codes:
  0    the turn completed
  1    the turn failed (model or tool error, refused connection), or ptc did
  2    the command line cannot run (unknown flag, bad flag value, no prompt)
  3    the turn hit --max-steps
  130  it was interrupted (Ctrl-C / SIGINT; the session is kept and resumable)

` + environmentHelp,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkRunFlags(f); err != nil {
				return newUsageError(c, err)
			}
			input, err := readPrompt(args, c.InOrStdin(), c.ErrOrStderr())
			if errors.Is(err, errNoPrompt) {
				return newUsageError(c, err)
			}
			if err != nil {
				return err
			}
			if f.fleet.url != "" {
				if f.schema.path != "" {
					return errors.New("--output-schema is not available with --nats (a worker runs the turn)")
				}
				return runFleet(c, f, input)
			}
			return runOnce(c, f, input)
		},
	}
	f.register(cmd)
	f.fleet.register(cmd)
	f.schema.register(cmd)
	cmd.Flags().StringVar(&f.output, "output", "text", "output format: text, json or stream-json")
	return cmd
}

// readPrompt is the argument, else all of stdin. On a terminal, a person
// is told what ptc waits for: without it, `ptc run` alone looks hung.
func readPrompt(args []string, stdin io.Reader, errw io.Writer) (string, error) {
	if len(args) == 1 {
		return args[0], nil
	}
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintln(errw, "ptc run: type the prompt, then press Ctrl-D on an empty line to send it (or pass it as an argument: ptc run 'PROMPT'; plain `ptc` is the interactive session)")
	}
	b, err := io.ReadAll(stdin)
	if err != nil {
		return "", fmt.Errorf("read the prompt from stdin: %w", err)
	}
	text := strings.TrimSpace(string(b))
	if text == "" {
		return "", errNoPrompt
	}
	return text, nil
}

// errNoPrompt is a run with neither a prompt argument nor stdin text: a
// command line ptc cannot run (exit 2).
var errNoPrompt = errors.New("no prompt: pass it as an argument or on stdin")

// checkRunFlags rejects flag values that are wrong whatever the home and
// the session hold (an output format, sandbox mode, approval policy or
// number out of range), before anything is opened, so that they exit 2
// as a usage error rather than 1 as a failed run.
func checkRunFlags(f *runFlags) error {
	if err := checkOutput(f.output); err != nil {
		return err
	}
	return harness.CheckSettings(f.settings)
}

func runOnce(c *cobra.Command, f *runFlags, input string) error {
	if err := f.schema.load(f); err != nil {
		return err
	}
	out := c.OutOrStdout()
	pr := newPrinter(f.output, out, c.ErrOrStderr())
	a, err := openApp(c.Context(), f, pr.event)
	if err != nil {
		return err
	}
	defer a.Close()
	pr.sessionID, pr.resume = a.ID(), a.resumeHint()
	pr.tally.model, pr.tally.priced = a.sess.Settings().Model, a.sess.Model()
	input = expandCommand(a, f, input)

	ctx, stop := interruptContext(c.Context())
	defer stop()
	res, err := runAgentic(ctx, a, f, input)
	if err != nil {
		return err
	}
	pr.result = f.schema.result
	if err := pr.finish(res); err != nil {
		return err
	}
	if f.schema.invalid != nil {
		return f.schema.invalid
	}
	return turnError(res)
}

// expandCommand is input with a custom slash command ("/name args", a
// .ptc/commands or $PTC_HOME/commands file) replaced by its prompt; any
// other input as given. What was wrong with the command files is said
// when the input calls a command.
func expandCommand(a *app, f *runFlags, input string) string {
	if _, _, call := slash.Parse(input); !call {
		return input
	}
	prompt, ok, warnings := a.sess.ExpandCommand(input)
	for _, w := range warnings {
		f.notef("ptc: warning: %s", termsafe.String(w))
	}
	if !ok {
		return input
	}
	return prompt
}

// turnError turns an outcome that is not a success into the command's
// error (and so a non-zero exit).
func turnError(res agent.Outcome) error {
	switch res.Reason {
	case session.ReasonError:
		if res.Err != nil {
			return res.Err
		}
		return errors.New(res.Failure)
	case session.ReasonAborted:
		return exitError{code: exitInterrupted}
	case session.ReasonMaxSteps:
		return exitError{code: exitMaxSteps}
	}
	return nil
}

// ptc run's exit codes (README "Commands", `ptc run --help`): 0 the turn completed, 1 it
// failed (or ptc did), 2 the command line was wrong, 3 the turn hit
// --max-steps, 130 it was interrupted.
const (
	exitMaxSteps    = 3
	exitInterrupted = 130
)

// printer renders the events of a run in one output format.
type printer struct {
	format    string
	out, err  io.Writer
	sessionID string
	resume    string // the command that continues the session
	color     bool
	inText    bool // last thing printed was streamed text without a newline
	context   contextView
	inReason  bool
	// result is the structured answer's value (--output-schema), printed
	// as result in --output json.
	result json.RawMessage
	// users prints the user's prompts too: a follower of a session others
	// type into (ptc attach --serve) sees what was asked.
	users bool
	// tally is what --output json sums up besides the outcome (summary.go).
	tally tally
}

func newPrinter(format string, out, errw io.Writer) *printer {
	p := &printer{format: format, out: out, err: errw}
	if f, ok := out.(*os.File); ok && format == "text" {
		p.color = term.IsTerminal(int(f.Fd()))
	}
	return p
}

const (
	ansiDim   = "\x1b[2m"
	ansiReset = "\x1b[0m"
)

// event is the agent's observer.
func (p *printer) event(ev session.Event) {
	p.tally.count(ev)
	switch p.format {
	case "stream-json":
		p.streamJSON(ev)
	case "json":
	default:
		p.text(ev)
	}
}

func (p *printer) streamJSON(ev session.Event) {
	line, err := json.Marshal(struct {
		SessionID string `json:"session_id"`
		session.Event
	}{p.sessionID, ev})
	if err == nil {
		fmt.Fprintf(p.out, "%s\n", line)
	}
}

func (p *printer) text(ev session.Event) {
	if p.contextText(ev) || p.agenticText(ev) {
		return
	}
	switch ev.Type {
	case session.TypeUserMessage:
		var d session.UserMessage
		if p.users && json.Unmarshal(ev.Data, &d) == nil && d.Source.Kind == "user" && len(d.Content) > 0 {
			p.endReasoning()
			p.breakLine()
			fmt.Fprintln(p.out, "> "+termsafe.String(d.Content[0].Text))
		}
	case session.TypeAssistantChunk:
		var d session.AssistantChunk
		if json.Unmarshal(ev.Data, &d) != nil {
			return
		}
		switch d.Chunk.Kind {
		case llm.ChunkReasoning:
			p.reasoning(d.Chunk.Text)
		case llm.ChunkText:
			p.endReasoning()
			fmt.Fprint(p.out, termsafe.String(d.Chunk.Text))
			p.inText = true
		}
	case session.TypeToolCall:
		var d session.ToolCall
		if json.Unmarshal(ev.Data, &d) == nil {
			p.call("→ ", d.Name, d.Arguments)
			p.program(d.Name, d.Arguments)
		}
	case session.TypeToolResult:
		var d session.ToolResult
		if json.Unmarshal(ev.Data, &d) != nil {
			return
		}
		if d.Error != nil {
			p.line(fmt.Sprintf("  ✗ %s: %s", termsafe.Line(d.Error.Code), clip(d.Error.Message, 100)))
		} else if len(d.Content) > 0 {
			p.head("  ← ", d.Content[0].Text)
		}
	case session.TypePtcDispatchStart:
		var d session.PtcDispatch
		if json.Unmarshal(ev.Data, &d) == nil {
			p.call("  ↳ ", d.Name, d.Arguments)
		}
	case session.TypePtcDispatch:
		var d session.PtcDispatch
		if json.Unmarshal(ev.Data, &d) == nil && d.IsError {
			p.line(fmt.Sprintf("    ✗ %s", clip(d.Content, 100)))
		}
	case session.TypePtcLog:
		var d session.PtcLog
		if json.Unmarshal(ev.Data, &d) == nil {
			for _, l := range strings.Split(strings.TrimRight(d.Text, "\n"), "\n") {
				p.line("  │ " + clip(l, 120))
			}
		}
	case session.TypeLLMRetry:
		var d session.LLMRetry
		if json.Unmarshal(ev.Data, &d) == nil {
			why := d.Code
			if d.Reason != "" {
				why += ": " + clip(d.Reason, 200)
			}
			fmt.Fprintf(p.err, "ptc: model request failed (%s); retrying in %d ms (attempt %d)\n", why, d.DelayMs, d.Attempt)
		}
	}
}

func (p *printer) reasoning(s string) {
	if !p.inReason {
		p.breakLine()
		if p.color {
			fmt.Fprint(p.out, ansiDim)
		}
		p.inReason = true
	}
	fmt.Fprint(p.out, termsafe.String(s))
	p.inText = true
}

func (p *printer) endReasoning() {
	if !p.inReason {
		return
	}
	if p.color {
		fmt.Fprint(p.out, ansiReset)
	}
	p.inReason = false
	p.breakLine()
}

func (p *printer) breakLine() {
	if p.inText {
		fmt.Fprintln(p.out)
		p.inText = false
	}
}

func (p *printer) line(s string) {
	p.endReasoning()
	p.breakLine()
	if p.color {
		s = ansiDim + s + ansiReset
	}
	fmt.Fprintln(p.out, s)
}

// finish prints what comes after the events: the final object for json,
// a closing newline and the session id for text.
func (p *printer) finish(res agent.Outcome) error {
	switch p.format {
	case "json":
		fo := p.tally.apply(finalObject(p.sessionID, res))
		fo.Result = p.result
		return json.NewEncoder(p.out).Encode(fo)
	case "stream-json":
		return nil
	}
	p.endReasoning()
	p.breakLine()
	if res.Reason != session.ReasonCompleted && res.Reason != session.ReasonError {
		fmt.Fprintf(p.err, "ptc: turn ended: %s\n", res.Reason)
	}
	if m := p.context.last; m != nil {
		fmt.Fprintln(p.err, meterText(*m))
	}
	fmt.Fprintf(p.err, "session %s (resume with: %s)\n", p.sessionID, p.resume)
	return nil
}

type final struct {
	SessionID string    `json:"session_id"`
	Text      string    `json:"text"`
	Reason    string    `json:"reason"`
	Cause     string    `json:"cause,omitempty"`
	Failure   string    `json:"failure,omitempty"`
	Usage     llm.Usage `json:"usage"`
	Turn      int       `json:"turn"`
	Steps     int       `json:"steps"`
	// Result is the answer's JSON value under --output-schema.
	Result json.RawMessage `json:"result,omitempty"`
	// Model and ToolCalls (calls per tool name, a program's nested calls
	// included) are set by ptc run.
	Model     string         `json:"model,omitempty"`
	ToolCalls map[string]int `json:"tool_calls,omitempty"`
}

func finalObject(id string, res agent.Outcome) final {
	return final{SessionID: id, Text: res.Text, Reason: res.Reason, Cause: res.Cause, Failure: res.Failure,
		Usage: res.Usage, Turn: res.Turn, Steps: res.Steps}
}

// Text output shows this much of a program and of each result.
const (
	programHeadLines = 4
	resultHeadLines  = 3
)

// call shows a call on one line, and under it the reason given when the
// call asks for a wider sandbox mode (sanitised like everything else: a
// justification is the model's text).
func (p *printer) call(prefix, name, raw string) {
	p.line(clip(prefix+tui.CallSummary(name, raw), 120))
	var esc struct {
		Mode string `json:"sandbox_permissions"`
		Why  string `json:"justification"`
	}
	if json.Unmarshal([]byte(raw), &esc) == nil && esc.Mode != "" {
		p.line(clip(strings.Repeat(" ", utf8.RuneCountInString(prefix))+"asks for "+esc.Mode+": "+esc.Why, 160))
	}
}

// program shows the first lines of a run_code program under its call.
func (p *printer) program(name, raw string) {
	if name != "run_code" {
		return
	}
	var args struct {
		Code string `json:"code"`
	}
	if json.Unmarshal([]byte(raw), &args) != nil || strings.TrimSpace(args.Code) == "" {
		return
	}
	p.lines("  ┃ ", "  ┃ ", strings.TrimRight(args.Code, "\n"), programHeadLines)
}

// head shows the first lines of a result: what a command printed first,
// not only its last line.
func (p *printer) head(prefix, text string) {
	text = strings.TrimRight(text, " \n")
	if text == "" {
		return
	}
	p.lines(prefix, strings.Repeat(" ", utf8.RuneCountInString(prefix)), text, resultHeadLines)
}

func (p *printer) lines(first, rest, text string, n int) {
	all := strings.Split(text, "\n")
	for i, l := range all {
		if i == n {
			p.line(fmt.Sprintf("%s… %d more line(s)", rest, len(all)-n))
			return
		}
		prefix := rest
		if i == 0 {
			prefix = first
		}
		p.line(prefix + clip(l, 110))
	}
}

// clip is s on one line, sanitised and cut to n bytes.
func clip(s string, n int) string {
	return termsafe.Clip(strings.ReplaceAll(s, "\n", " "), n)
}
