package toolbox

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// AgentStopInput is agent_stop's input.
type AgentStopInput struct {
	AgentID string `json:"agent_id"`
}

const agentStopSchema = `{
	"type": "object",
	"properties": {"agent_id": {"type": "string"}},
	"required": ["agent_id"],
	"additionalProperties": false
}`

// AgentStop returns agent_stop over the session's children a.
func AgentStop(a Agents) tools.Tool {
	return tools.New(agentSpec(AgentStopName, agentStopSchema, childInfoSchema),
		func(ctx context.Context, _ tools.Call, in AgentStopInput) (ChildInfo, error) {
			if a == nil {
				return ChildInfo{}, errNoSession
			}
			return a.Stop(ctx, in.AgentID)
		}, tools.WithRenderer(renderChild))
}
