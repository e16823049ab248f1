package toolbox

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ptc-dev/ptc/runtime/goal"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// Names of the goal tools.
const (
	CreateGoalName = "create_goal"
	GetGoalName    = "get_goal"
	UpdateGoalName = "update_goal"
)

// GoalAck is the value of create_goal and update_goal: the goal's name
// and state after the change.
type GoalAck struct {
	GoalID   string `json:"goal_id"`
	Revision int    `json:"revision"`
	Status   string `json:"status"`
}

const goalAckSchema = `{
	"type": "object",
	"properties": {"goal_id": {"type": "string"}, "revision": {"type": "integer"}, "status": {"type": "string"}},
	"required": ["goal_id", "revision", "status"],
	"additionalProperties": false
}`

func goalSpec(name, in, out string) tools.Spec {
	return tools.Spec{Name: name, Description: doc(name), InputSchema: json.RawMessage(in), OutputSchema: json.RawMessage(out)}
}

// changeGoal asks k for a change, logged through the Env's Sink.
func changeGoal(ctx context.Context, k *goal.Keeper, req goal.Request) (GoalAck, error) {
	sink := tools.EnvFrom(ctx).Sink
	emit := func(typ string, data any) error {
		if sink == nil {
			return nil
		}
		return sink.Emit(typ, data)
	}
	g, err := k.Change(emit, req)
	if err != nil {
		return GoalAck{}, err
	}
	return GoalAck{GoalID: g.ID, Revision: g.Revision, Status: g.Status}, nil
}

// renderGoal shows the goal tools' values as one sentence.
func renderGoal(v any) string {
	switch out := v.(type) {
	case GoalAck:
		return fmt.Sprintf("Goal %s is %s (revision %d).", out.GoalID, out.Status, out.Revision)
	case GoalOutput:
		if out.Goal == nil {
			return "There is no goal."
		}
		return "Goal " + goal.Describe(*out.Goal)
	}
	return tools.RenderValue(v)
}
