package toolbox

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/goal"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// CreateGoalInput is create_goal's input.
type CreateGoalInput struct {
	Objective string `json:"objective"`
	MaxRounds int    `json:"max_rounds,omitempty"`
}

const createGoalSchema = `{
	"type": "object",
	"properties": {
		"objective": {"type": "string", "description": "What must be true when the goal is done."},
		"max_rounds": {"type": "integer", "description": "Round cap (default 256)."}
	},
	"required": ["objective"],
	"additionalProperties": false
}`

// CreateGoal returns create_goal over k: the agent sets the goal the user
// asked for (the keeper decides whether it may).
func CreateGoal(k *goal.Keeper) tools.Tool {
	return tools.New(goalSpec(CreateGoalName, createGoalSchema, goalAckSchema), func(ctx context.Context, call tools.Call, in CreateGoalInput) (GoalAck, error) {
		return changeGoal(ctx, k, goal.Request{Action: goal.ActionCreate, Objective: in.Objective, MaxRounds: in.MaxRounds, By: goal.ByAgent, CallID: call.ID})
	}, tools.WithRenderer(renderGoal))
}
