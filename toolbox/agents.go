package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/structured"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// Names of the subagent tools.
const (
	SubagentName    = "subagent"
	AgentOutputName = "agent_output"
	AgentListName   = "agent_list"
	AgentStopName   = "agent_stop"
)

// Agents are the subagents of one session, as the subagent tools drive
// them. harness implements it (its children run as sessions of their own,
// which this package cannot open); a nil Agents is a toolset built
// without a session, whose subagent tools refuse to run.
type Agents interface {
	// Start runs a child for call: until it ends, or in the background
	// when in.Background (its end is announced to the parent later).
	Start(ctx context.Context, call tools.Call, in SubagentInput) (ChildInfo, error)
	// Output is the child's state; with wait, once it has ended.
	Output(ctx context.Context, id string, wait bool) (ChildInfo, error)
	// List is every child of the session, without their answers.
	List() AgentListOutput
	// Stop cancels a running child and waits until it has ended.
	Stop(ctx context.Context, id string) (ChildInfo, error)
	// Hold keeps the session from closing until release is called: a
	// call that runs children and logs after they end (workflow, ralph)
	// holds it, since a cancelled turn's call returns before its body
	// has. It fails once the session has begun closing.
	Hold() (release func(), err error)
}

// AgentRunning is the status of a child that has not ended yet (the
// others are the session.Subagent* end statuses and "interrupted").
const AgentRunning = "running"

// SubagentInput is the subagent tool's input.
type SubagentInput struct {
	Description string `json:"description"`
	Prompt      string `json:"prompt"`
	Preset      string `json:"preset,omitempty"`
	Background  bool   `json:"run_in_background,omitempty"`
	// Schema, when set, makes the child's final answer a JSON value valid
	// against it (one retry with the validation error); set by workflow
	// agents, not part of the subagent tool's input.
	Schema *structured.Schema `json:"-"`
	// CallID, when set, is the id the child is linked by instead of the
	// call's (a workflow's agents: one id per agent of one call).
	CallID string `json:"-"`
}

// ChildInfo is what the subagent tools return about a child.
type ChildInfo struct {
	AgentID     string `json:"agent_id"`
	Description string `json:"description"`
	Status      string `json:"status"`
	Background  bool   `json:"-"` // shown by agent_list, not part of the value
	Text        string `json:"text,omitempty"`
	Failure     string `json:"failure,omitempty"`
	// Result is a structured child's answer value (SubagentInput.Schema).
	Result json.RawMessage `json:"-"`
}

const childInfoSchema = `{
	"type": "object",
	"properties": {
		"agent_id": {"type": "string"},
		"description": {"type": "string"},
		"status": {"type": "string", "enum": ["running", "completed", "failed", "stopped", "interrupted"]},
		"text": {"type": "string", "description": "The final answer (partial when failed)."},
		"failure": {"type": "string"}
	},
	"required": ["agent_id", "description", "status"],
	"additionalProperties": false
}`

func agentSpec(name, in, out string) tools.Spec {
	return tools.Spec{Name: name, Description: doc(name), InputSchema: json.RawMessage(in), OutputSchema: json.RawMessage(out)}
}

// errNoSession is the failure of a subagent tool built without a session.
var errNoSession = tools.Errorf(tools.CodeToolFailed, "subagents need a running session (not available in ptc exec)")

// renderChild shows a finished child's answer alone, a running one as a
// line saying how to follow it.
func renderChild(v any) string {
	info, ok := v.(ChildInfo)
	switch {
	case !ok:
		return tools.RenderValue(v)
	case info.Status == AgentRunning:
		return fmt.Sprintf("Subagent %s (%s) is running in the background; you will be told when it finishes (agent_output {\"agent_id\": %q}).", info.AgentID, info.Description, info.AgentID)
	case info.Status != "completed":
		s := fmt.Sprintf("Subagent %s (%s) %s", info.AgentID, info.Description, info.Status)
		if info.Failure != "" {
			s += ": " + info.Failure
		}
		if info.Text != "" {
			s += "\nIts partial answer:\n" + info.Text
		}
		return s
	case strings.TrimSpace(info.Text) == "":
		return "(the subagent finished without an answer)"
	}
	return info.Text
}
