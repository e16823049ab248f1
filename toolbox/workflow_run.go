package toolbox

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/ptc"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/structured"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// The two calls a workflow script's helpers make; they are the only
// tools the script can reach (tools.bash and the rest do not exist in it).
const (
	wfAgent = "agent"
	wfPhase = "phase"
)

// workflowPrelude defines the workflow API in front of the model's
// script, on the script's first line so that line numbers in errors are
// the script's own; workflowClose ends the inner function the script is
// the body of (its return value is the workflow's result).
const workflowPrelude = `const agent = (o) => tools.agent(o === undefined ? {} : o); ` +
	`const parallel = (fs) => { if (!Array.isArray(fs)) throw new TypeError("parallel() takes an array of functions, e.g. parallel([() => agent({...}), () => agent({...})])"); ` +
	`return Promise.all(fs.map((f, i) => { if (typeof f !== "function") throw new TypeError("parallel(): item " + i + " is not a function; pass () => agent({...})"); return f(); })); }; ` +
	`const pipeline = async (input, ...stages) => { let v = input; for (const s of stages) { if (typeof s !== "function") throw new TypeError("pipeline(): every stage must be a function of the previous result"); v = await s(v); } return v; }; ` +
	`const phase = async (name, fn) => { if (typeof fn !== "function") throw new TypeError("phase(name, fn): fn must be a function"); ` +
	`const id = await tools.phase({name: String(name), status: "started"}); let r; ` +
	`try { r = await fn(); } catch (e) { await tools.phase({id, status: "failed", error: String(e && e.message || e)}); throw e; } ` +
	`await tools.phase({id, status: "completed"}); return r; }; ` +
	`return await (async () => {`
const workflowClose = "\n})();"

// workflowRun is one workflow call's Dispatcher: agent calls become child
// sessions (at most WorkflowConcurrency at once, MaxWorkflowAgents in
// all), phase calls become workflow/phase events.
type workflowRun struct {
	agents Agents
	callID string
	sink   tools.Sink
	slots  chan struct{}
	tool   tools.Tool // what Lookup answers: concurrency-safe, so calls share the pool

	mu      sync.Mutex
	started []WorkflowAgent
	phases  []*wfPhaseState
}

type wfPhaseState struct {
	name  string
	start time.Time
	ended bool
}

func newWorkflowRun(a Agents, callID string, sink tools.Sink) *workflowRun {
	safe := tools.New(tools.Spec{Name: "workflow-call", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, tools.Call, map[string]any) (any, error) { return nil, nil }, tools.Safe())
	return &workflowRun{agents: a, callID: callID, sink: sink, slots: make(chan struct{}, WorkflowConcurrency), tool: safe}
}

// Lookup answers for the script's two calls only.
func (w *workflowRun) Lookup(name string) (tools.Tool, bool) {
	if name == wfAgent || name == wfPhase {
		return w.tool, true
	}
	return nil, false
}

// Dispatch runs one call of the script.
func (w *workflowRun) Dispatch(ctx context.Context, call tools.Call) tools.Result {
	var v any
	var err error
	switch call.Name {
	case wfAgent:
		v, err = w.agent(ctx, call)
	case wfPhase:
		v, err = w.phase(call)
	default:
		err = tools.Errorf(tools.CodeUnknownTool, "a workflow script can call only agent(), parallel(), pipeline() and phase(); %q is not one", call.Name)
	}
	if err != nil {
		te, ok := err.(*tools.Error)
		if !ok {
			te = tools.Errorf(tools.CodeToolFailed, "%v", err)
		}
		return tools.Failure(call, te)
	}
	content, _ := json.Marshal(v)
	return tools.Result{CallID: call.ID, Name: call.Name, Value: v, Content: string(content)}
}

// agentArgs are agent()'s options.
type agentArgs struct {
	Prompt      string          `json:"prompt"`
	Description string          `json:"description"`
	Preset      string          `json:"preset"`
	Schema      json.RawMessage `json:"schema"`
}

// agent starts one child and waits for its answer: the text, or with a
// schema the answer's JSON value.
func (w *workflowRun) agent(ctx context.Context, call tools.Call) (any, error) {
	var a agentArgs
	dec := json.NewDecoder(bytes.NewReader(call.Args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return nil, tools.Errorf(tools.CodeInvalidArgs, "agent(): the options are {prompt, description?, preset?, schema?}: %v", err)
	}
	in := SubagentInput{Prompt: a.Prompt, Description: a.Description, Preset: a.Preset}
	if strings.TrimSpace(in.Description) == "" {
		in.Description = clip.String(strings.Join(strings.Fields(a.Prompt), " "), 60)
	}
	if len(bytes.TrimSpace(a.Schema)) > 0 && string(bytes.TrimSpace(a.Schema)) != "null" {
		s, err := structured.Parse(a.Schema)
		if err != nil {
			return nil, tools.Errorf(tools.CodeInvalidArgs, "agent(): %v", err)
		}
		in.Schema = s
	}
	idx, ok := w.reserve(in.Description)
	if !ok {
		return nil, tools.Errorf(tools.CodeDenied, "agent(): a workflow may start at most %d agents; this one asked for more", MaxWorkflowAgents)
	}
	select {
	case w.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, tools.Errorf(tools.CodeAborted, "agent(): the workflow was stopped before this agent started")
	}
	defer func() { <-w.slots }()
	info, err := w.agents.Start(ctx, call, in)
	w.record(idx, info, err)
	if err != nil {
		return nil, err
	}
	if in.Schema != nil {
		return info.Result, nil
	}
	return info.Text, nil
}

// reserve counts an agent against MaxWorkflowAgents and returns its
// place in the summary.
func (w *workflowRun) reserve(description string) (int, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.started) >= MaxWorkflowAgents {
		return 0, false
	}
	w.started = append(w.started, WorkflowAgent{Description: description, Status: AgentRunning})
	return len(w.started) - 1, true
}

// record fills in agent idx once it has ended.
func (w *workflowRun) record(idx int, info ChildInfo, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	a := &w.started[idx]
	a.AgentID, a.Status = info.AgentID, info.Status
	if err != nil {
		a.Status = "failed: " + clip.String(err.Error(), 300)
	}
}

// summary lists the agents in the order they were called.
func (w *workflowRun) summary() []WorkflowAgent {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]WorkflowAgent{}, w.started...)
}

// phaseArgs are the prelude's phase calls: a start names the phase, an
// end gives the id the start returned.
type phaseArgs struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"`
	Error  string `json:"error"`
}

// phase records a phase starting (returning its index) or ending.
func (w *workflowRun) phase(call tools.Call) (any, error) {
	var a phaseArgs
	if err := json.Unmarshal(call.Args, &a); err != nil {
		return nil, tools.Errorf(tools.CodeInvalidArgs, "phase: %v", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if a.Status == session.PhaseStarted {
		if len(w.phases) >= MaxWorkflowPhases {
			return nil, tools.Errorf(tools.CodeDenied, "phase(): a workflow may open at most %d phases", MaxWorkflowPhases)
		}
		name := clip.String(strings.TrimSpace(a.Name), 200)
		w.phases = append(w.phases, &wfPhaseState{name: name, start: time.Now()})
		idx := len(w.phases)
		w.emit(session.WorkflowPhase{CallID: w.callID, Index: idx, Name: name, Status: session.PhaseStarted})
		return idx, nil
	}
	if a.ID < 1 || a.ID > len(w.phases) || w.phases[a.ID-1].ended || (a.Status != session.PhaseCompleted && a.Status != session.PhaseFailed) {
		return nil, tools.Errorf(tools.CodeInvalidArgs, "phase: no open phase %d to end as %q (call phase(name, fn) instead)", a.ID, a.Status)
	}
	w.endPhase(a.ID, a.Status, a.Error)
	return a.ID, nil
}

// endPhase logs the end of phase idx (w.mu held).
func (w *workflowRun) endPhase(idx int, status, failure string) {
	p := w.phases[idx-1]
	p.ended = true
	w.emit(session.WorkflowPhase{CallID: w.callID, Index: idx, Name: p.name, Status: status,
		DurationMs: time.Since(p.start).Milliseconds(), Error: clip.String(failure, 1000)})
}

// endOpenPhases ends, as failed, the phases a stopped script left open
// (a timeout, a cancelled turn), so every started phase has an end.
func (w *workflowRun) endOpenPhases(o *ptc.Outcome) {
	why := "the workflow ended before the phase did"
	if o.Failure != nil {
		why = o.Failure.Message
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, p := range w.phases {
		if !p.ended {
			w.endPhase(i+1, session.PhaseFailed, why)
		}
	}
}

func (w *workflowRun) emit(d session.WorkflowPhase) {
	if w.sink != nil {
		_ = w.sink.Emit(session.TypeWorkflowPhase, d)
	}
}

// quietPhases drops the engine's dispatch events of phase calls: the
// workflow/phase events say the same, and the calls are the prelude's,
// not the script's.
type quietPhases struct{ sink tools.Sink }

func (q quietPhases) Emit(typ string, data any) error {
	if q.sink == nil {
		return nil
	}
	if d, ok := data.(session.PtcDispatch); ok && d.Name == wfPhase {
		return nil
	}
	return q.sink.Emit(typ, data)
}
