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

// Output is get_goal's value: the goal, or null for none.
type Output struct {
	Goal *session.Goal `json:"goal"`
}

// Ack is the value of create_goal and update_goal: the goal's name and
// state after the change.
type Ack struct {
	GoalID   string `json:"goal_id"`
	Revision int    `json:"revision"`
	Status   string `json:"status"`
}

const ackSchema = `{
	"type": "object",
	"properties": {"goal_id": {"type": "string"}, "revision": {"type": "integer"}, "status": {"type": "string"}},
	"required": ["goal_id", "revision", "status"],
	"additionalProperties": false
}`

const createSchema = `{
	"type": "object",
	"properties": {
		"objective": {"type": "string", "description": "What must be true when the goal is done."},
		"max_rounds": {"type": "integer", "description": "Round cap (default 256)."}
	},
	"required": ["objective"],
	"additionalProperties": false
}`

const getSchema = `{"type": "object", "properties": {}, "additionalProperties": false}`

const updateSchema = `{
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

const outputSchema = `{
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

func spec(name, desc, in, out string) tools.Spec {
	return tools.Spec{Name: name, Description: desc, InputSchema: json.RawMessage(in), OutputSchema: json.RawMessage(out)}
}

// Tools returns create_goal, get_goal and update_goal over k. Their
// changes are logged through the Env's Sink.
func Tools(k *Keeper) []tools.Tool {
	render := tools.WithRenderer(renderOutput)
	return []tools.Tool{
		tools.New(spec(CreateName, createDoc, createSchema, ackSchema), func(ctx context.Context, call tools.Call, in CreateInput) (Ack, error) {
			return k.change(ctx, Request{Action: ActionCreate, Objective: in.Objective, MaxRounds: in.MaxRounds, By: ByAgent, CallID: call.ID})
		}, render),
		tools.New(spec(GetName, getDoc, getSchema, outputSchema), func(context.Context, tools.Call, struct{}) (Output, error) {
			if g, ok := k.Goal(); ok {
				return Output{Goal: &g}, nil
			}
			return Output{}, nil
		}, render, tools.Safe()),
		tools.New(spec(UpdateName, updateDoc, updateSchema, ackSchema), func(ctx context.Context, call tools.Call, in UpdateInput) (Ack, error) {
			return k.change(ctx, Request{Action: in.Action, GoalID: in.GoalID, Revision: in.Revision, Objective: in.Objective,
				MaxRounds: in.MaxRounds, BlockedReason: in.BlockedReason, By: ByAgent, CallID: call.ID})
		}, render),
	}
}

func (k *Keeper) change(ctx context.Context, req Request) (Ack, error) {
	sink := tools.EnvFrom(ctx).Sink
	emit := func(typ string, data any) error {
		if sink == nil {
			return nil
		}
		return sink.Emit(typ, data)
	}
	g, err := k.Change(emit, req)
	if err != nil {
		return Ack{}, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return Ack{GoalID: g.ID, Revision: g.Revision, Status: g.Status}, nil
}

const (
	createDoc = "Only when the user asks for a goal, in their turn: set one. Rounds then follow until you report it complete or blocked, or the cap ends it."
	getDoc    = "The session's goal (id, revision, status, rounds, cap), or null."
	updateDoc = "Pass goal_id and revision (a changed goal refuses). complete: the objective is met. blocked, with blocked_reason: no progress possible (from round 3). edit, pause, resume: only for the user's own request in their turn."
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
	switch out := v.(type) {
	case Ack:
		return fmt.Sprintf("Goal %s is %s (revision %d).", out.GoalID, out.Status, out.Revision)
	case Output:
		if out.Goal == nil {
			return "There is no goal."
		}
		return "Goal " + Describe(*out.Goal)
	}
	return tools.RenderValue(v)
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
