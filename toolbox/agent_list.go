package toolbox

import (
	"context"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// AgentListOutput is agent_list's value.
type AgentListOutput struct {
	Agents []AgentSummary `json:"agents"`
}

// AgentSummary is one child in agent_list: its ChildInfo without the
// answer (agent_output has the answers).
type AgentSummary struct {
	AgentID     string `json:"agent_id"`
	Description string `json:"description"`
	Status      string `json:"status"`
	Background  bool   `json:"-"` // shown in the text, not part of the value
	Failure     string `json:"failure,omitempty"`
}

// listSchema is agent_list's output: each child without its answer.
const listSchema = `{"type": "object", "properties": {"agents": {"type": "array", "items": {
	"type": "object",
	"properties": {"agent_id": {"type": "string"}, "description": {"type": "string"}, "status": {"type": "string"}, "failure": {"type": "string"}},
	"required": ["agent_id", "description", "status"], "additionalProperties": false}}},
	"required": ["agents"], "additionalProperties": false}`

// AgentList returns agent_list over the session's children a.
func AgentList(a Agents) tools.Tool {
	return tools.New(agentSpec(AgentListName, `{"type":"object","properties":{},"additionalProperties":false}`, listSchema),
		func(context.Context, tools.Call, struct{}) (AgentListOutput, error) {
			if a == nil {
				return AgentListOutput{Agents: []AgentSummary{}}, nil
			}
			return a.List(), nil
		}, tools.Safe(), tools.WithRenderer(renderList))
}

func renderList(v any) string {
	l, ok := v.(AgentListOutput)
	if !ok {
		return tools.RenderValue(v)
	}
	if len(l.Agents) == 0 {
		return "This session has started no subagents."
	}
	var b strings.Builder
	for _, a := range l.Agents {
		fmt.Fprintf(&b, "%s  %-11s %s", a.AgentID, a.Status, a.Description)
		if a.Background {
			b.WriteString(" (background)")
		}
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}
