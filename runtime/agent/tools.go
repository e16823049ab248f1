package agent

import (
	"context"
	"encoding/json"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// ToolRunner is what the loop needs from the tool runtime: the wire specs
// of the visible tools and the scheduler for the calls of one step, with
// the contract of tools.Runner.RunStep (CallStarted before each body, in
// model order; CallFinished in model order; ABORTED_BEFORE_DISPATCH for
// calls cancelled before they started). FromRunner adapts a tools.Runner.
type ToolRunner interface {
	Specs() []llm.ToolSpec
	RunStep(ctx context.Context, calls []tools.Call, obs tools.StepObserver) []tools.Result
}

// FromRunner presents a tools.Runner as the loop's ToolRunner; the wire
// specs are those of its registry's presentation.
func FromRunner(r *tools.Runner) ToolRunner { return runner{r} }

type runner struct{ *tools.Runner }

func (r runner) Specs() []llm.ToolSpec { return r.Registry().WireSpecs() }

// runTools runs the step's calls and makes sure every call ends with a
// tool/call + tool/result pair in the log, in model order.
func (a *Agent) runTools(ctx context.Context, turn, step int, calls []llm.ToolCall) error {
	rec := &recorder{a: a, ctx: ctx, turn: turn, step: step}
	batch := make([]tools.Call, len(calls))
	for i, c := range calls {
		batch[i] = tools.Call{ID: c.ID, Name: c.Name, Raw: c.Arguments, Args: parseArgs(c.Arguments), Turn: turn, Step: step}
	}
	if a.cfg.Tools != nil {
		a.cfg.Tools.RunStep(tools.WithEnv(ctx, a.env()), batch, rec)
	}
	if rec.err != nil {
		return rec.err
	}
	// Both callbacks come in model order, so the calls the runner left
	// without a pair are the tail of the batch (all of it without tools).
	for _, c := range batch[rec.finished:] {
		if rec.started == rec.finished {
			rec.CallStarted(c)
		}
		rec.CallFinished(c, unfinished(ctx, c, a.cfg.Tools == nil))
	}
	return rec.err
}

// env is the tools.Env handed to tool bodies, its Sink defaulting to the
// session log.
func (a *Agent) env() *tools.Env {
	env := tools.Env{}
	if a.cfg.Env != nil {
		env = *a.cfg.Env
	}
	if env.Sink == nil {
		env.Sink = a
	}
	return &env
}

// unfinished is the synthetic result of a call the runner did not finish.
func unfinished(ctx context.Context, c tools.Call, noTools bool) tools.Result {
	if ctx.Err() != nil || !noTools {
		return tools.AbortedBeforeDispatch(c)
	}
	return tools.Failure(c, tools.Errorf(tools.CodeUnknownTool, "unknown tool %q: no tools are available in this session", c.Name))
}

// parseArgs parses the raw argument string: empty means {}, invalid JSON
// gives nil and is left for the runner to report as INVALID_ARGS.
func parseArgs(raw string) json.RawMessage {
	if raw == "" {
		return json.RawMessage(`{}`)
	}
	if !json.Valid([]byte(raw)) {
		return nil
	}
	return json.RawMessage(raw)
}

// recorder is the tools.StepObserver backed by the agent's log. The
// runner never calls it concurrently. It counts the calls started and
// finished rather than remembering their ids, which the model may repeat
// or leave empty. A log failure is kept and reported once the step is over.
type recorder struct {
	a          *Agent
	ctx        context.Context
	turn, step int

	started, finished int
	err               error
}

func (r *recorder) CallStarted(c tools.Call) {
	data := session.ToolCall{Turn: r.turn, Step: r.step, CallID: c.ID, Name: c.Name, Arguments: c.Raw}
	if _, err := r.a.append(r.ctx, session.TypeToolCall, data, true); err != nil && r.err == nil {
		r.err = err
	}
	r.started++
}

func (r *recorder) CallFinished(c tools.Call, res tools.Result) {
	data := session.ToolResult{Turn: r.turn, Step: r.step, CallID: c.ID, Name: c.Name,
		Content: session.TextBlocks(res.Content), IsError: res.IsError}
	if res.Error != nil {
		data.Error = &session.ErrorInfo{Code: res.Error.Code, Message: res.Error.Message}
	}
	if _, err := r.a.append(r.ctx, session.TypeToolResult, data, false); err != nil && r.err == nil {
		r.err = err
	}
	r.finished++
}
