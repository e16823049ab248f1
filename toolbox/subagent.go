package toolbox

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/tools"
)

const subagentInSchema = `{
	"type": "object",
	"properties": {
		"description": {"type": "string", "description": "Three to five words."},
		"prompt": {"type": "string", "description": "The whole task: the subagent sees nothing else."},
		"preset": {"type": "string"},
		"run_in_background": {"type": "boolean", "description": "Return at once; you are told when it ends."}
	},
	"required": ["description", "prompt"],
	"additionalProperties": false
}`

// Subagent returns the subagent tool over the session's children a. It is
// concurrency-safe: every child is its own session.
func Subagent(a Agents) tools.Tool {
	return tools.New(agentSpec(SubagentName, subagentInSchema, childInfoSchema),
		func(ctx context.Context, call tools.Call, in SubagentInput) (ChildInfo, error) {
			if a == nil {
				return ChildInfo{}, errNoSession
			}
			return a.Start(ctx, call, in)
		}, tools.Safe(), tools.WithRenderer(renderChild))
}
