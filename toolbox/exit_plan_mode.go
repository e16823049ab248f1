package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/plan"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// ExitPlanInput is the input of exit_plan_mode.
type ExitPlanInput struct {
	Plan string `json:"plan"`
}

// ExitPlanOutput says how the plan was received: approved (Todos steps taken
// into the todo list), or Stopped because nobody could approve it.
type ExitPlanOutput struct {
	Approved bool `json:"approved"`
	Todos    int  `json:"todos"`
	Stopped  bool `json:"stopped,omitempty"`
}

// MaxPlanBytes bounds a plan: it is shown to a person whole.
const MaxPlanBytes = 64 << 10

const exitPlanInputSchema = `{
	"type": "object",
	"properties": {"plan": {"type": "string", "pattern": "^\\s*#"}},
	"required": ["plan"],
	"additionalProperties": false
}`

const exitPlanOutputSchema = `{
	"type": "object",
	"properties": {
		"approved": {"type": "boolean"},
		"todos": {"type": "integer"},
		"stopped": {"type": "boolean"}
	},
	"required": ["approved", "todos"],
	"additionalProperties": false
}`

// ExitPlanOptions adjust exit_plan_mode to the run.
type ExitPlanOptions struct {
	// NoUser is called when nobody can approve the plan (a headless run):
	// the caller ends the run there, plan mode still on.
	NoUser func()
	// Approve approves every plan without asking (ptc run --approve-plan).
	Approve bool
}

// ExitPlanMode returns exit_plan_mode for the session whose switch is m. It is
// always registered (the tool list never changes with the mode) and
// fails while plan mode is off. The plan goes to the session's Approvals
// as a tools.KindPlan question, unless o.Approve.
func ExitPlanMode(m *plan.Mode, o ExitPlanOptions) tools.Tool {
	spec := tools.Spec{
		Name:         plan.ExitName,
		Description:  doc(plan.ExitName),
		InputSchema:  json.RawMessage(exitPlanInputSchema),
		OutputSchema: json.RawMessage(exitPlanOutputSchema),
	}
	x := exitPlan{mode: m, opts: o}
	return tools.New(spec, x.run, tools.WithRenderer(renderExitPlan))
}

type exitPlan struct {
	mode *plan.Mode
	opts ExitPlanOptions
}

func (x exitPlan) run(ctx context.Context, call tools.Call, in ExitPlanInput) (ExitPlanOutput, error) {
	if !x.mode.Active() {
		return ExitPlanOutput{}, tools.Errorf(tools.CodeToolFailed, "plan mode is not on, so there is no plan to approve; carry on with the task")
	}
	if len(in.Plan) > MaxPlanBytes {
		return ExitPlanOutput{}, tools.Errorf(tools.CodeInvalidArgs, "the plan is %d bytes; keep it under %d", len(in.Plan), MaxPlanBytes)
	}
	env := tools.EnvFrom(ctx)
	if x.opts.Approve {
		return x.approve(env, call, in.Plan)
	}
	if env.Approvals == nil {
		return x.unanswered()
	}
	reply, err := env.Approvals.Ask(ctx, env, tools.Question{Kind: tools.KindPlan, CallID: call.ID, Tool: call.Name, Text: in.Plan,
		Options: []string{tools.AnswerApprovePlan, tools.AnswerKeepPlanning}})
	switch {
	case errors.Is(err, tools.ErrNoAnswerer):
		return x.unanswered()
	case err != nil && ctx.Err() != nil:
		return ExitPlanOutput{}, tools.Errorf(tools.CodeAborted, "the plan was not answered: the turn was cancelled")
	case err != nil:
		return ExitPlanOutput{}, fmt.Errorf("the plan could not be shown to the user: %w", err)
	}
	if a := strings.TrimSpace(reply.Answer); a != tools.AnswerApprovePlan {
		return ExitPlanOutput{}, keepPlanning(a)
	}
	return x.approve(env, call, in.Plan)
}

// approve ends plan mode with the plan text kept as the todo list.
func (x exitPlan) approve(env *tools.Env, call tools.Call, text string) (ExitPlanOutput, error) {
	todos := plan.Todos(text)
	if err := record(env, session.TypePlanMode, session.PlanMode{Active: false, By: plan.ByApproval, CallID: call.ID, Plan: text}); err != nil {
		return ExitPlanOutput{}, fmt.Errorf("the approval could not be recorded: %w", err)
	}
	x.mode.Set(false)
	if err := record(env, session.TypeTodoWrite, session.TodoWrite{CallID: call.ID, Todos: todos}); err != nil {
		return ExitPlanOutput{}, fmt.Errorf("the plan's todo list could not be recorded: %w", err)
	}
	return ExitPlanOutput{Approved: true, Todos: len(todos)}, nil
}

// unanswered ends a run in which nobody can approve the plan.
func (x exitPlan) unanswered() (ExitPlanOutput, error) {
	if x.opts.NoUser != nil {
		x.opts.NoUser()
	}
	return ExitPlanOutput{Stopped: true}, nil
}

// keepPlanning is the failure that carries the user's feedback.
func keepPlanning(feedback string) *tools.Error {
	if feedback == "" || feedback == tools.AnswerKeepPlanning {
		return tools.Errorf(tools.CodeDenied, "the user did not approve the plan and wants you to keep planning (plan mode stays on); ask what to change if it is unclear")
	}
	return tools.Errorf(tools.CodeDenied, "the user did not approve the plan; keep planning (plan mode stays on) and revise it. The user's feedback: %s", feedback)
}

// record logs one event through the Env's Sink, if any.
func record(env *tools.Env, typ string, data any) error {
	if env.Sink == nil {
		return nil
	}
	return env.Sink.Emit(typ, data)
}

func renderExitPlan(v any) string {
	out, ok := v.(ExitPlanOutput)
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
