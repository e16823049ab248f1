package toolbox

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/goal"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// UpdateGoalInput is update_goal's input.
type UpdateGoalInput struct {
	GoalID        string `json:"goal_id"`
	Revision      int    `json:"revision"`
	Action        string `json:"action"`
	Objective     string `json:"objective,omitempty"`
	MaxRounds     int    `json:"max_rounds,omitempty"`
	BlockedReason string `json:"blocked_reason,omitempty"`
}

const updateGoalSchema = `{
	"type": "object",
	"properties": {
		"goal_id": {"type": "string"},
		"revision": {"type": "integer"},
		"action": {"type": "string", "enum": ["edit", "pause", "resume", "complete", "blocked"]},
		"objective": {"type": "string"},
		"max_rounds": {"type": "integer"},
		"blocked_reason": {"type": "string"}
	},
	"required": ["goal_id", "revision", "action"],
	"additionalProperties": false
}`

// UpdateGoal returns update_goal over k: the agent reports the goal
// complete or blocked, or passes on the user's edit, pause or resume (the
// keeper checks the revision and who may do what).
func UpdateGoal(k *goal.Keeper) tools.Tool {
	return tools.New(goalSpec(UpdateGoalName, updateGoalSchema, goalAckSchema), func(ctx context.Context, call tools.Call, in UpdateGoalInput) (GoalAck, error) {
		return changeGoal(ctx, k, goal.Request{Action: in.Action, GoalID: in.GoalID, Revision: in.Revision, Objective: in.Objective,
			MaxRounds: in.MaxRounds, BlockedReason: in.BlockedReason, By: goal.ByAgent, CallID: call.ID})
	}, tools.WithRenderer(renderGoal))
}
