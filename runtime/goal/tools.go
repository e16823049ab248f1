package goal

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// Tool names.
const (
	CreateName = "create_goal"
	GetName    = "get_goal"
	UpdateName = "update_goal"
)

// CreateInput is create_goal's input.
type CreateInput struct {
	Objective string `json:"objective"`
	MaxRounds int    `json:"max_rounds,omitempty"`
}

// UpdateInput is update_goal's input.
type UpdateInput struct {
	GoalID        string `json:"goal_id"`
	Revision      int    `json:"revision"`
	Action        string `json:"action"`
	Objective     string `json:"objective,omitempty"`
	MaxRounds     int    `json:"max_rounds,omitempty"`
	BlockedReason string `json:"blocked_reason,omitempty"`
}

// Output is the value of all three tools: the goal, or null for none.
type Output struct {
	Goal *session.Goal `json:"goal"`
}

var createSchema = fmt.Sprintf(`{
	"type": "object",
	"properties": {
		"objective": {"type": "string", "minLength": 1, "maxLength": %d, "description": "What must be true when the goal is done, in the user's words."},
		"max_rounds": {"type": "integer", "minimum": 1, "maximum": %d, "description": "Most rounds to spend on it (default %d)."}
	},
	"required": ["objective"],
	"additionalProperties": false
}`, MaxObjectiveLen, MaxMaxRounds, DefaultMaxRounds)

const getSchema = `{"type": "object", "properties": {}, "additionalProperties": false}`

var updateSchema = fmt.Sprintf(`{
	"type": "object",
	"properties": {
		"goal_id": {"type": "string", "minLength": 1},
		"revision": {"type": "integer", "minimum": 1, "description": "The revision you last saw (get_goal); a changed goal refuses the update."},
		"action": {"type": "string", "enum": ["edit", "pause", "resume", "complete", "blocked"]},
		"objective": {"type": "string", "minLength": 1, "maxLength": %d, "description": "edit: the new objective."},
		"max_rounds": {"type": "integer", "minimum": 1, "maximum": %d, "description": "edit: the new round cap."},
		"blocked_reason": {"type": "string", "minLength": 1, "description": "blocked: what stops the work."}
	},
	"required": ["goal_id", "revision", "action"],
	"additionalProperties": false
}`, MaxObjectiveLen, MaxMaxRounds)

var outputSchema = `{
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

func spec(name, desc, in string) tools.Spec {
	return tools.Spec{Name: name, Description: desc, InputSchema: json.RawMessage(in), OutputSchema: json.RawMessage(outputSchema)}
}

// Tools returns create_goal, get_goal and update_goal over k. Their
// changes are logged through the Env's Sink.
func Tools(k *Keeper) []tools.Tool {
	render := tools.WithRenderer(renderOutput)
	return []tools.Tool{
		tools.New(spec(CreateName, createDoc, createSchema), func(ctx context.Context, call tools.Call, in CreateInput) (Output, error) {
			return k.change(ctx, Request{Action: ActionCreate, Objective: in.Objective, MaxRounds: in.MaxRounds, By: ByAgent, CallID: call.ID})
		}, render),
		tools.New(spec(GetName, getDoc, getSchema), func(context.Context, tools.Call, struct{}) (Output, error) {
			if g, ok := k.Goal(); ok {
				return Output{Goal: &g}, nil
			}
			return Output{}, nil
		}, render, tools.Safe()),
		tools.New(spec(UpdateName, updateDoc, updateSchema), func(ctx context.Context, call tools.Call, in UpdateInput) (Output, error) {
			return k.change(ctx, Request{Action: in.Action, GoalID: in.GoalID, Revision: in.Revision, Objective: in.Objective,
				MaxRounds: in.MaxRounds, BlockedReason: in.BlockedReason, By: ByAgent, CallID: call.ID})
		}, render),
	}
}

func (k *Keeper) change(ctx context.Context, req Request) (Output, error) {
	sink := tools.EnvFrom(ctx).Sink
	emit := func(typ string, data any) error {
		if sink == nil {
			return nil
		}
		return sink.Emit(typ, data)
	}
	g, err := k.Change(emit, req)
	if err != nil {
		return Output{}, err
	}
	return Output{Goal: &g}, nil
}

const (
	createDoc = "Set a goal the work continues toward over several rounds: after this turn, ptc keeps starting rounds until you report it complete (or blocked) or the round cap is reached. Only in a turn the user started, and only when the user asked for a goal; never in a goal round or a subagent."
	getDoc    = "Return the session's goal (id, objective, status, revision, rounds done and the cap), or null when there is none."
	updateDoc = "Change the goal. Pass the goal_id and the revision from get_goal or the round prompt; a goal that changed since refuses the update. action complete: the objective is fully met. blocked (with blocked_reason): you cannot make progress, accepted from round 3. edit (objective, max_rounds), pause and resume are for the user's own requests in a turn they started; a goal round cannot use them."
)

// Describe is the goal in one line, for the model and the terminal.
func Describe(g session.Goal) string {
	s := fmt.Sprintf("%s (revision %d, %s, %d of %d rounds): %s", g.ID, g.Revision, g.Status, g.Rounds, g.MaxRounds, g.Objective)
	if g.BlockedReason != "" {
		s += " — blocked: " + g.BlockedReason
	}
	return s
}

func renderOutput(v any) string {
	out, ok := v.(Output)
	switch {
	case !ok:
		return tools.RenderValue(v)
	case out.Goal == nil:
		return "There is no goal."
	}
	return "Goal " + Describe(*out.Goal)
}

// RoundPrompt is the input of a goal round's turn: short, with what the
// model needs to report back.
func RoundPrompt(g session.Goal, r session.GoalRound) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Goal round %d of %d (goal_id %s, revision %d). Objective: %s\n", r.Round, r.MaxRounds, g.ID, g.Revision, g.Objective)
	b.WriteString("Continue toward the objective. When it is fully met, call update_goal with action complete. ")
	if r.Round >= BlockedFrom {
		b.WriteString("If you cannot make progress, call update_goal with action blocked and a blocked_reason.")
	} else {
		fmt.Fprintf(&b, "Keep trying: blocked is accepted from round %d.", BlockedFrom)
	}
	return b.String()
}

// RoundSource is the source of a round's user/message.
func RoundSource() session.Source {
	return session.Source{Kind: "plugin", Name: "goal", Form: "round"}
}
