package plan

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

//go:embed exit_plan_mode.md
var exitDoc string

// ExitName is the tool's wire name.
const ExitName = "exit_plan_mode"

// ExitInput is the input of exit_plan_mode.
type ExitInput struct {
	Plan string `json:"plan"`
}

// ExitOutput says how the plan was received: approved (Todos steps taken
// into the todo list), or Stopped because nobody could approve it.
type ExitOutput struct {
	Approved bool `json:"approved"`
	Todos    int  `json:"todos"`
	Stopped  bool `json:"stopped,omitempty"`
}

// MaxPlanBytes bounds a plan: it is shown to a person whole.
const MaxPlanBytes = 64 << 10

const exitInputSchema = `{
	"type": "object",
	"properties": {"plan": {"type": "string", "pattern": "^\\s*#"}},
	"required": ["plan"],
	"additionalProperties": false
}`

const exitOutputSchema = `{
	"type": "object",
	"properties": {
		"approved": {"type": "boolean"},
		"todos": {"type": "integer"},
		"stopped": {"type": "boolean"}
	},
	"required": ["approved", "todos"],
	"additionalProperties": false
}`

// ExitOptions adjust exit_plan_mode to the run.
type ExitOptions struct {
	// NoUser is called when nobody can approve the plan (a headless run):
	// the caller ends the run there, plan mode still on.
	NoUser func()
	// Approve approves every plan without asking (ptc run --approve-plan).
	Approve bool
}

// Exit returns exit_plan_mode for the session whose switch is m. It is
// always registered (the tool list never changes with the mode) and
// fails while plan mode is off. The plan goes to the Env's Answerer as a
// tools.KindPlan question, unless o.Approve.
func Exit(m *Mode, o ExitOptions) tools.Tool {
	spec := tools.Spec{
		Name:         ExitName,
		Description:  strings.TrimSpace(exitDoc),
		InputSchema:  json.RawMessage(exitInputSchema),
		OutputSchema: json.RawMessage(exitOutputSchema),
	}
	x := exit{mode: m, opts: o}
	return tools.New(spec, x.run, tools.WithRenderer(renderExit))
}

type exit struct {
	mode *Mode
	opts ExitOptions
}

func (x exit) run(ctx context.Context, call tools.Call, in ExitInput) (ExitOutput, error) {
	if !x.mode.Active() {
		return ExitOutput{}, tools.Errorf(tools.CodeToolFailed, "plan mode is not on, so there is no plan to approve; carry on with the task")
	}
	if len(in.Plan) > MaxPlanBytes {
		return ExitOutput{}, tools.Errorf(tools.CodeInvalidArgs, "the plan is %d bytes; keep it under %d", len(in.Plan), MaxPlanBytes)
	}
	env := tools.EnvFrom(ctx)
	if x.opts.Approve {
		return x.approve(env, call, in.Plan)
	}
	if env.Answerer == nil {
		return x.unanswered()
	}
	answer, err := env.Answerer.Ask(ctx, tools.Question{Kind: tools.KindPlan, CallID: call.ID, Tool: call.Name, Text: in.Plan,
		Options: []string{tools.AnswerApprovePlan, tools.AnswerKeepPlanning}})
	switch {
	case errors.Is(err, tools.ErrNoAnswerer):
		return x.unanswered()
	case err != nil && ctx.Err() != nil:
		return ExitOutput{}, tools.Errorf(tools.CodeAborted, "the plan was not answered: the turn was cancelled")
	case err != nil:
		return ExitOutput{}, fmt.Errorf("the plan could not be shown to the user: %w", err)
	}
	if a := strings.TrimSpace(answer); a != tools.AnswerApprovePlan {
		return ExitOutput{}, keepPlanning(a)
	}
	return x.approve(env, call, in.Plan)
}

// approve ends plan mode with plan kept as the todo list.
func (x exit) approve(env *tools.Env, call tools.Call, plan string) (ExitOutput, error) {
	todos := Todos(plan)
	if err := emit(env, session.TypePlanMode, session.PlanMode{Active: false, By: ByApproval, CallID: call.ID, Plan: plan}); err != nil {
		return ExitOutput{}, fmt.Errorf("the approval could not be recorded: %w", err)
	}
	x.mode.Set(false)
	if err := emit(env, session.TypeTodoWrite, session.TodoWrite{CallID: call.ID, Todos: todos}); err != nil {
		return ExitOutput{}, fmt.Errorf("the plan's todo list could not be recorded: %w", err)
	}
	return ExitOutput{Approved: true, Todos: len(todos)}, nil
}

// unanswered ends a run in which nobody can approve the plan.
func (x exit) unanswered() (ExitOutput, error) {
	if x.opts.NoUser != nil {
		x.opts.NoUser()
	}
	return ExitOutput{Stopped: true}, nil
}

// keepPlanning is the failure that carries the user's feedback.
func keepPlanning(feedback string) *tools.Error {
	if feedback == "" || feedback == tools.AnswerKeepPlanning {
		return tools.Errorf(tools.CodeDenied, "the user did not approve the plan and wants you to keep planning (plan mode stays on); ask what to change if it is unclear")
	}
	return tools.Errorf(tools.CodeDenied, "the user did not approve the plan; keep planning (plan mode stays on) and revise it. The user's feedback: %s", feedback)
}

func emit(env *tools.Env, typ string, data any) error {
	if env.Sink == nil {
		return nil
	}
	return env.Sink.Emit(typ, data)
}

func renderExit(v any) string {
	out, ok := v.(ExitOutput)
	switch {
	case !ok:
		return tools.RenderValue(v)
	case out.Stopped:
		return "Nobody can approve the plan in this run: it was shown to the user and the run stops here, with plan mode still on. Do not call more tools; the user resumes the session to approve it."
	case out.Todos > 0:
		return fmt.Sprintf("The user approved the plan. Plan mode is off and the workspace is writable again; the plan's %d steps are your todo list. Start the work now, following the plan, and keep the todo list up to date.", out.Todos)
	}
	return "The user approved the plan. Plan mode is off and the workspace is writable again. Start the work now, following the plan."
}
