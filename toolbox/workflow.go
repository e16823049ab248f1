package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/ptc"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// WorkflowName is the workflow tool's name.
const WorkflowName = "workflow"

// Limits of one workflow call, stated in workflow.md.
const (
	// MaxWorkflowAgents is how many agents one workflow may start.
	MaxWorkflowAgents = 24
	// WorkflowConcurrency is how many of its agents run at once; the
	// others wait for a free slot, in the order they were called.
	WorkflowConcurrency = 4
	// MaxWorkflowPhases is how many phases one workflow may open.
	MaxWorkflowPhases = 50
	// WorkflowTimeout is a workflow's wall time, agents included.
	WorkflowTimeout = 60 * time.Minute
)

// workflowLimits are the run_code engine's budgets for a workflow script:
// its own wall time, and room in the call pool for every agent and phase
// call (the agents' own concurrency is the dispatcher's).
var workflowLimits = ptc.Limits{
	Timeout:    WorkflowTimeout,
	MaxTimeout: WorkflowTimeout,
	MaxCalls:   MaxWorkflowAgents + 2*MaxWorkflowPhases + 10,
	Parallel:   MaxWorkflowAgents,
}.WithDefaults()

const workflowInSchema = `{
	"type": "object",
	"properties": {
		"script": {"type": "string", "description": "The workflow: the body of an async TypeScript function using agent(), parallel(), pipeline() and phase(); what it returns is the result."},
		"description": {"type": "string", "description": "What the workflow does, in 5-10 words, shown to the user."}
	},
	"required": ["script", "description"],
	"additionalProperties": false
}`

const workflowOutSchema = `{
	"type": "object",
	"properties": {
		"result": {"description": "What the script returned."},
		"logs": {"type": "array", "items": {"type": "string"}},
		"agents": {"type": "array", "items": {"type": "object", "properties": {
			"agent_id": {"type": "string"}, "description": {"type": "string"}, "status": {"type": "string"}},
			"required": ["agent_id", "description", "status"], "additionalProperties": false}}
	},
	"required": ["logs", "agents"],
	"additionalProperties": false
}`

// WorkflowInput is the workflow tool's input.
type WorkflowInput struct {
	Script      string `json:"script"`
	Description string `json:"description"`
}

// WorkflowAgent is one agent a workflow started, as its output lists it.
type WorkflowAgent struct {
	AgentID     string `json:"agent_id"`
	Description string `json:"description"`
	Status      string `json:"status"`
}

// WorkflowOutput is the workflow tool's value: the script's result, its
// console lines and its agents. Text is the model-visible rendering.
type WorkflowOutput struct {
	Result json.RawMessage `json:"result,omitempty"`
	Logs   []string        `json:"logs"`
	Agents []WorkflowAgent `json:"agents"`
	Text   string          `json:"-"`
}

// Workflow is the workflow tool: a model-written script run in the
// run_code engine (same transform, budgets and isolation) whose only
// calls start child agents through a (the session's subagents).
type Workflow struct {
	agents Agents
}

// NewWorkflow returns the workflow tool over the session's children a
// (nil: built without a session; it refuses to run).
func NewWorkflow(a Agents) *Workflow { return &Workflow{agents: a} }

// Spec describes workflow for the wire.
func (t *Workflow) Spec() tools.Spec {
	return tools.Spec{Name: WorkflowName, Description: doc(WorkflowName), InputSchema: json.RawMessage(workflowInSchema),
		OutputSchema: json.RawMessage(workflowOutSchema), Timeout: WorkflowTimeout + 10*time.Second}
}

// ArgsType is WorkflowInput.
func (t *Workflow) ArgsType() reflect.Type { return reflect.TypeFor[WorkflowInput]() }

// ValueType is WorkflowOutput.
func (t *Workflow) ValueType() reflect.Type { return reflect.TypeFor[WorkflowOutput]() }

// ConcurrencySafe is true: every agent is a session of its own, and the
// script itself touches nothing.
func (t *Workflow) ConcurrencySafe(json.RawMessage) bool { return true }

// Execute runs the script. A script that fails (throws, times out, an
// agent error it does not catch) is a CODE_RUN_FAILED failure whose
// message is the rendered report; the children it started have ended by
// then, since the engine drains its calls and cancelling the run cancels
// them.
func (t *Workflow) Execute(ctx context.Context, call tools.Call) (any, error) {
	if t.agents == nil {
		return nil, errNoSession
	}
	var in WorkflowInput
	if err := json.Unmarshal(call.Args, &in); err != nil {
		return nil, tools.Errorf(tools.CodeInvalidArgs, "invalid arguments for workflow: %v", err)
	}
	if strings.TrimSpace(in.Description) == "" {
		return nil, tools.Errorf(tools.CodeInvalidArgs, "invalid description: expected a non-empty string saying what the workflow does")
	}
	if strings.TrimSpace(in.Script) == "" {
		return nil, tools.Errorf(tools.CodeInvalidArgs, "invalid script: expected the body of an async function that calls agent()")
	}
	release, err := t.agents.Hold()
	if err != nil {
		return nil, err
	}
	defer release()
	env := tools.EnvFrom(ctx)
	run := newWorkflowRun(t.agents, call.ID, env.Sink)
	o := ptc.Run(ctx, workflowLimits, ptc.Request{
		CallID:     call.ID,
		Code:       workflowPrelude + in.Script + workflowClose,
		Tools:      []string{wfAgent, wfPhase},
		Dispatcher: run,
		Sink:       quietPhases{env.Sink},
		Turn:       call.Turn,
		Step:       call.Step,
	})
	run.endOpenPhases(o)
	text := ptc.RenderVisible(o, in.Script, workflowLimits.VisibleOutput, env.SpillDir, call.ID)
	agents := run.summary()
	text += agentsLine(agents)
	if !o.OK() {
		return nil, &tools.Error{Code: tools.CodeCodeRunFailed, Message: text}
	}
	return &WorkflowOutput{Result: o.Result, Logs: o.Logs, Agents: agents, Text: text}, nil
}

// agentsLine names the agents a workflow started, after its report.
func agentsLine(agents []WorkflowAgent) string {
	if len(agents) == 0 {
		return "\n(the workflow started no agents)"
	}
	parts := make([]string, len(agents))
	for i, a := range agents {
		parts[i] = a.AgentID + " " + a.Status
	}
	return fmt.Sprintf("\n(%d agent(s): %s)", len(agents), strings.Join(parts, ", "))
}

// MaxResultBytes lets the rendered report through the Runner's generic
// truncation: Execute caps it already, as run_code does.
func (t *Workflow) MaxResultBytes() int { return workflowLimits.VisibleOutput + 4096 }

// Render is the model-visible text of a workflow's value.
func (t *Workflow) Render(value any) string {
	switch v := value.(type) {
	case *WorkflowOutput:
		if v.Text != "" {
			return v.Text
		}
		return ptc.Render(&ptc.Outcome{Logs: v.Logs, Result: v.Result}, "") + agentsLine(v.Agents)
	}
	return tools.RenderValue(value)
}
