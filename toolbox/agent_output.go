package toolbox

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// AgentOutputInput is agent_output's input.
type AgentOutputInput struct {
	AgentID string `json:"agent_id"`
	Wait    bool   `json:"wait,omitempty"`
}

const agentOutputSchema = `{
	"type": "object",
	"properties": {"agent_id": {"type": "string"}, "wait": {"type": "boolean", "description": "Wait until it ends."}},
	"required": ["agent_id"],
	"additionalProperties": false
}`

// AgentOutput returns agent_output over the session's children a.
func AgentOutput(a Agents) tools.Tool {
	return tools.New(agentSpec(AgentOutputName, agentOutputSchema, childInfoSchema),
		func(ctx context.Context, _ tools.Call, in AgentOutputInput) (ChildInfo, error) {
			if a == nil {
				return ChildInfo{}, errNoSession
			}
			return a.Output(ctx, in.AgentID, in.Wait)
		}, tools.Safe(), tools.WithRenderer(renderChild))
}
