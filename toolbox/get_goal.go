package toolbox

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/goal"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// GoalOutput is get_goal's value: the goal, or null for none.
type GoalOutput struct {
	Goal *session.Goal `json:"goal"`
}

const getGoalSchema = `{"type": "object", "properties": {}, "additionalProperties": false}`

const goalOutputSchema = `{
	"type": "object",
	"properties": {
		"goal": {"anyOf": [{"type": "null"}, {
			"type": "object",
			"properties": {
				"id": {"type": "string"}, "objective": {"type": "string"}, "maxRounds": {"type": "integer"},
				"status": {"type": "string", "enum": ["active", "paused", "complete", "blocked", "max-rounds"]},
				"revision": {"type": "integer"}, "rounds": {"type": "integer"}, "blockedReason": {"type": "string"}
			},
			"required": ["id", "objective", "maxRounds", "status", "revision", "rounds"],
			"additionalProperties": false
		}]}
	},
	"required": ["goal"],
	"additionalProperties": false
}`

// GetGoal returns get_goal over k. It only reads, so it is
// concurrency-safe.
func GetGoal(k *goal.Keeper) tools.Tool {
	return tools.New(goalSpec(GetGoalName, getGoalSchema, goalOutputSchema), func(context.Context, tools.Call, struct{}) (GoalOutput, error) {
		if g, ok := k.Goal(); ok {
			return GoalOutput{Goal: &g}, nil
		}
		return GoalOutput{}, nil
	}, tools.WithRenderer(renderGoal), tools.Safe())
}
