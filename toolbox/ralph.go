package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/structured"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// RalphName is the ralph tool's name.
const RalphName = "ralph"

// Round caps of a ralph call.
const (
	DefaultRalphRounds = 10
	MaxRalphRounds     = 50
)

// Bounds of a ralph call's text.
const (
	maxObjective   = 20_000
	maxRoundReport = 16 << 10 // carried into the next round's prompt
	roundLineChars = 200      // a round's line in the summary
)

// RalphInput is the ralph tool's input.
type RalphInput struct {
	Objective string `json:"objective"`
	MaxRounds int    `json:"max_rounds,omitempty"`
}

// RalphRound is one round as ralph's output lists it.
type RalphRound struct {
	Round   int    `json:"round"`
	AgentID string `json:"agent_id,omitempty"`
	Status  string `json:"status"`
	Report  string `json:"report"`
}

// RalphOutput is ralph's value: how the loop ended (done, blocked,
// max-rounds, stopped), every round, and the last report whole.
type RalphOutput struct {
	Status     string       `json:"status"`
	Rounds     []RalphRound `json:"rounds"`
	LastReport string       `json:"last_report"`
}

const ralphInSchema = `{
	"type": "object",
	"properties": {
		"objective": {"type": "string", "description": "The whole objective, fixed for every round: each round's agent sees only it, the workspace and the previous round's report."},
		"max_rounds": {"type": "integer", "minimum": 1, "maximum": 50, "description": "Round cap (default 10)."}
	},
	"required": ["objective"],
	"additionalProperties": false
}`

const ralphOutSchema = `{
	"type": "object",
	"properties": {
		"status": {"type": "string", "enum": ["done", "blocked", "max-rounds", "stopped"]},
		"rounds": {"type": "array", "items": {"type": "object", "properties": {
			"round": {"type": "integer"}, "agent_id": {"type": "string"}, "status": {"type": "string"}, "report": {"type": "string"}},
			"required": ["round", "status", "report"], "additionalProperties": false}},
		"last_report": {"type": "string"}
	},
	"required": ["status", "rounds", "last_report"],
	"additionalProperties": false
}`

// roundSchema is what every round's agent answers: its status and the
// report the next round starts from. It is compiled at the first round,
// not at package init: compiling a schema costs every ptc process
// milliseconds at start-up (the validator's meta-schema), ralph or not.
var roundSchema = sync.OnceValue(func() *structured.Schema {
	s, err := structured.Parse([]byte(`{"type": "object", "properties": {
	"status": {"type": "string", "enum": ["done", "blocked", "continue"]},
	"report": {"type": "string", "description": "What this round did, what is left, and what the next round should do first."}},
	"required": ["status", "report"], "additionalProperties": false}`))
	if err != nil {
		panic(err)
	}
	return s
})

// roundAnswer is a round agent's structured answer.
type roundAnswer struct {
	Status string `json:"status"`
	Report string `json:"report"`
}

// Ralph returns the ralph tool over the session's children a: a fixed
// loop of fresh children toward one objective, each seeing only the
// objective, the workspace and the previous round's report.
func Ralph(a Agents) tools.Tool {
	return tools.New(tools.Spec{Name: RalphName, Description: doc(RalphName), InputSchema: json.RawMessage(ralphInSchema), OutputSchema: json.RawMessage(ralphOutSchema)},
		func(ctx context.Context, call tools.Call, in RalphInput) (RalphOutput, error) {
			if a == nil {
				return RalphOutput{}, errNoSession
			}
			return runRalph(ctx, a, call, in)
		}, tools.WithRenderer(renderRalph))
}

func runRalph(ctx context.Context, a Agents, call tools.Call, in RalphInput) (RalphOutput, error) {
	objective := strings.TrimSpace(in.Objective)
	switch {
	case objective == "":
		return RalphOutput{}, tools.Errorf(tools.CodeInvalidArgs, "ralph needs an objective: the whole task, fixed for every round")
	case len(objective) > maxObjective:
		return RalphOutput{}, tools.Errorf(tools.CodeInvalidArgs, "the objective is %d bytes; keep it under %d", len(objective), maxObjective)
	case in.MaxRounds < 0 || in.MaxRounds > MaxRalphRounds:
		return RalphOutput{}, tools.Errorf(tools.CodeInvalidArgs, "max_rounds is %d; it must be 1 to %d", in.MaxRounds, MaxRalphRounds)
	}
	rounds := in.MaxRounds
	if rounds == 0 {
		rounds = DefaultRalphRounds
	}
	release, err := a.Hold()
	if err != nil {
		return RalphOutput{}, err
	}
	defer release()
	sink := tools.EnvFrom(ctx).Sink
	out := RalphOutput{Status: session.GoalMaxRounds, Rounds: []RalphRound{}}
	for n := 1; n <= rounds; n++ {
		r := runRound(ctx, a, call, objective, n, rounds, out.LastReport)
		out.Rounds = append(out.Rounds, r)
		out.LastReport = r.Report
		if sink != nil {
			_ = sink.Emit(session.TypeRalphRound, session.RalphRound{CallID: call.ID, Round: n, MaxRounds: rounds, Child: r.AgentID, Status: r.Status, Report: clip.String(r.Report, maxRoundReport)})
		}
		switch {
		case ctx.Err() != nil:
			out.Status = "stopped"
			return out, nil
		case r.Status == session.RalphDone || r.Status == session.RalphBlocked:
			out.Status = r.Status
			return out, nil
		}
	}
	return out, nil
}

// runRound runs round n's child and reads its report. A round whose child
// fails (its turn did not complete, or its answer never matched) is a
// failed round whose report says so; the loop goes on from the last good
// report's place with that note.
func runRound(ctx context.Context, a Agents, call tools.Call, objective string, n, rounds int, prev string) RalphRound {
	in := SubagentInput{Description: fmt.Sprintf("ralph round %d of %d", n, rounds), Prompt: roundPrompt(objective, n, rounds, prev), Schema: roundSchema()}
	roundCall := call
	roundCall.ID = fmt.Sprintf("%s:round:%d", call.ID, n)
	info, err := a.Start(ctx, roundCall, in)
	if err != nil {
		msg := err.Error()
		var te *tools.Error
		if errors.As(err, &te) {
			msg = te.Message
		}
		return RalphRound{Round: n, AgentID: info.AgentID, Status: session.RalphFailed, Report: clip.String("round "+fmt.Sprint(n)+" failed: "+msg, maxRoundReport)}
	}
	var ans roundAnswer
	if json.Unmarshal(info.Result, &ans) != nil {
		return RalphRound{Round: n, AgentID: info.AgentID, Status: session.RalphFailed, Report: "round " + fmt.Sprint(n) + " gave no readable report"}
	}
	return RalphRound{Round: n, AgentID: info.AgentID, Status: ans.Status, Report: clip.String(strings.TrimSpace(ans.Report), maxRoundReport)}
}

// roundPrompt is everything a round's child sees besides the workspace.
func roundPrompt(objective string, n, rounds int, prev string) string {
	if prev == "" {
		prev = "(none: this is the first round)"
	}
	return fmt.Sprintf(`Round %d of %d of a loop working toward one fixed objective. You start fresh: what earlier rounds did is in the workspace and in the previous round's report below, nothing else.

Objective (fixed; do not widen or reinterpret it):
%s

Previous round's report:
%s

Do as much of the objective as you can in this round and check your work. Then answer with status "done" only when the whole objective is met and verified, "blocked" when it cannot be met without something only the user can give (say what in the report), else "continue"; and a report of what you did, what is left, and what the next round should do first: the next round sees only the objective and this report.`, n, rounds, objective, prev)
}

// renderRalph shows how the loop ended, one line per round and the last
// report whole.
func renderRalph(v any) string {
	out, ok := v.(RalphOutput)
	if !ok {
		return tools.RenderValue(v)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Ralph loop ended %s after %d round(s).\n", out.Status, len(out.Rounds))
	for _, r := range out.Rounds {
		line := strings.Join(strings.Fields(r.Report), " ")
		fmt.Fprintf(&b, "- round %d (%s) %s: %s\n", r.Round, r.AgentID, r.Status, clip.String(line, roundLineChars))
	}
	b.WriteString("Last report:\n")
	b.WriteString(out.LastReport)
	return b.String()
}
