package agent

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// ToolRunner is what the loop needs from the tool runtime: the wire specs
// of the visible tools and a scheduler for the calls of one step.
//
// RunStep runs calls (in model order) and reports through obs. Started
// must be called for a call before its body runs, and the body must not
// run if Started fails; Finished must be called exactly once per call, in
// model order, whatever order the bodies finish in. On ctx cancellation
// started calls drain and finish normally; calls not started may be
// reported with ABORTED_BEFORE_DISPATCH results or left out (the loop
// fills in synthetic pairs for anything not finished). A Go error means
// the scheduler itself broke.
type ToolRunner interface {
	Specs() []llm.ToolSpec
	RunStep(ctx context.Context, calls []tools.Call, obs StepObserver) error
}

// StepObserver records the calls of a step in the session log.
type StepObserver interface {
	// Started records tool/call durably; the body may run once it returns nil.
	Started(call tools.Call) error
	// Finished records tool/result.
	Finished(res tools.Result) error
}

// runTools runs the step's calls through the ToolRunner and makes sure
// every call ends with a tool/call + tool/result pair in the log.
func (a *Agent) runTools(ctx context.Context, turn, step int, calls []llm.ToolCall) error {
	rec := &recorder{a: a, ctx: ctx, turn: turn, step: step, started: map[string]bool{}, finished: map[string]bool{}}
	batch := make([]tools.Call, len(calls))
	for i, c := range calls {
		batch[i] = tools.Call{ID: c.ID, Name: c.Name, Raw: c.Arguments, Args: parseArgs(c.Arguments), Turn: turn, Step: step}
	}
	if a.cfg.Tools != nil {
		env := a.cfg.Env
		if env == nil {
			env = &tools.Env{}
		}
		if env.Sink == nil {
			e := *env
			e.Sink = a
			env = &e
		}
		if err := a.cfg.Tools.RunStep(tools.WithEnv(ctx, env), batch, rec); err != nil {
			return err
		}
	}
	if rec.err != nil {
		return rec.err
	}
	for _, c := range batch {
		if rec.finished[c.ID] {
			continue
		}
		res := unfinished(ctx, c, a.cfg.Tools == nil)
		if !rec.started[c.ID] {
			if err := rec.Started(c); err != nil {
				return err
			}
		}
		if err := rec.Finished(res); err != nil {
			return err
		}
	}
	return nil
}

// unfinished is the synthetic result of a call the runner did not finish.
func unfinished(ctx context.Context, c tools.Call, noTools bool) tools.Result {
	if ctx.Err() != nil || !noTools {
		return tools.Failure(c, tools.Errorf(tools.CodeAbortedBeforeDispatch, "tool call aborted before dispatch"))
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

// recorder is the StepObserver backed by the agent's log.
type recorder struct {
	a          *Agent
	ctx        context.Context
	turn, step int

	mu       sync.Mutex
	started  map[string]bool
	finished map[string]bool
	err      error
}

func (r *recorder) Started(c tools.Call) error {
	data := session.ToolCall{Turn: r.turn, Step: r.step, CallID: c.ID, Name: c.Name, Arguments: c.Raw}
	_, err := r.a.append(r.ctx, session.TypeToolCall, data, true)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.setErr(err)
		return err
	}
	r.started[c.ID] = true
	return nil
}

func (r *recorder) Finished(res tools.Result) error {
	data := session.ToolResult{Turn: r.turn, Step: r.step, CallID: res.CallID, Name: res.Name,
		Content: session.TextBlocks(res.Content), IsError: res.IsError}
	if res.Error != nil {
		data.Error = &session.ErrorInfo{Code: res.Error.Code, Message: res.Error.Message}
	}
	_, err := r.a.append(r.ctx, session.TypeToolResult, data, false)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.setErr(err)
		return err
	}
	r.finished[res.CallID] = true
	return nil
}

func (r *recorder) setErr(err error) {
	if r.err == nil {
		r.err = err
	}
}
