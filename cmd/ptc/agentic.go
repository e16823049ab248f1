package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ptc-dev/ptc/cmd/ptc/tui"
	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/goal"
	"github.com/ptc-dev/ptc/runtime/plan"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/toolbox"
)

// agenticFlags are plan mode's and goals' flags: --plan on ptc and ptc
// run; --approve-plan, --goal and --max-rounds on ptc run.
type agenticFlags struct {
	cmd         *cobra.Command
	plan        bool
	approvePlan bool
	goal        string
	maxRounds   int
}

func (f *agenticFlags) register(cmd *cobra.Command, rf *runFlags) {
	f.cmd = cmd
	fl := cmd.Flags()
	fl.BoolVar(&f.plan, "plan", false, "plan mode: every tool is read-only until you approve the agent's plan (exit_plan_mode); --plan=false on resume leaves it")
	if !strings.HasPrefix(cmd.Use, "run") {
		return
	}
	fl.BoolVar(&f.approvePlan, "approve-plan", false, "approve the agent's plan without asking (headless, --plan otherwise prints the plan and stops)")
	fl.StringVar(&f.goal, "goal", "", "set a goal: goal rounds run after the prompt's turn (or without a prompt) until the agent reports it complete or the round cap ends it")
	fl.IntVar(&f.maxRounds, "max-rounds", 0, fmt.Sprintf("the goal's round cap (default %d)", goal.DefaultMaxRounds))
	inner := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if f.maxRounds != 0 && f.goal == "" {
			return errors.New("--max-rounds needs --goal")
		}
		if len(args) > 0 || f.goal == "" && rf.resume == "" || isTerminal(c.InOrStdin()) {
			return inner(c, args)
		}
		// A goal, or a resumed session continuing its goal, needs no
		// prompt: stdin may be empty.
		b, err := io.ReadAll(c.InOrStdin())
		if err != nil {
			return fmt.Errorf("read the prompt from stdin: %w", err)
		}
		if p := strings.TrimSpace(string(b)); p != "" {
			return inner(c, []string{p})
		}
		return runOnce(c, rf, "")
	}
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// apply puts the flags into the session's options.
func (f *agenticFlags) apply(o *harness.Options) {
	if f.cmd != nil && f.cmd.Flags().Changed("plan") {
		on := f.plan
		o.Plan = &on
	}
	o.ApprovePlan = f.approvePlan
}

// runAgentic is ptc run's turn: the prompt's turn (none with only a goal),
// the goal's rounds, then the turns that background subagents' notices
// start, until none runs. A plan nobody could approve stops the run: the
// plan is the result's text.
func runAgentic(ctx context.Context, a *app, f *runFlags, input string) (agent.Outcome, error) {
	g := f.agentic
	if g.goal != "" {
		if _, err := a.sess.SetGoal(ctx, g.goal, g.maxRounds); err != nil {
			return agent.Outcome{}, err
		}
	}
	var res agent.Outcome
	var err error
	if input == "" {
		if cur, ok := a.sess.Goal(); !ok || cur.Status != session.GoalActive {
			return res, errors.New("no prompt: pass it as an argument or on stdin (a prompt may be left out only with --goal, or to continue a session's active goal)")
		}
		res, err = a.sess.RunGoal(ctx)
	} else {
		res, err = runPrompt(ctx, a, f, input)
	}
	if err != nil {
		return res, err
	}
	if a.sess.PlanStopped() {
		res.Text = lastPlan(a.sess.Events())
		if f.output == "" || f.output == "text" {
			fmt.Fprintf(os.Stderr, "ptc: the plan waits for approval (plan mode stays on); approve it with: ptc run --resume %s --approve-plan 'go ahead', or answer it in: %s\n",
				a.ID(), a.resumeHint())
		}
		return res, nil
	}
	if more, ran, err := a.sess.Settle(ctx); err != nil || ran {
		return more, err
	}
	return res, nil
}

// lastPlan is the plan of the last exit_plan_mode call in events.
func lastPlan(events []session.Event) string {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type != session.TypeToolCall {
			continue
		}
		var c session.ToolCall
		if json.Unmarshal(events[i].Data, &c) != nil || c.Name != plan.ExitName {
			continue
		}
		var in toolbox.ExitPlanInput
		if json.Unmarshal([]byte(c.Arguments), &in) == nil {
			return in.Plan
		}
	}
	return ""
}

// agenticCommand handles /plan and /goal in the line-mode session:
//
//	/plan [on|off]       switch plan mode (toggles without an argument)
//	/goal                show the goal
//	/goal OBJECTIVE      set a goal and run its rounds
//	/goal pause|resume|done
func agenticCommand(c *cobra.Command, s *harness.Session, text string) (bool, error) {
	w := c.ErrOrStderr()
	cmd, arg, _ := strings.Cut(text, " ")
	arg = strings.TrimSpace(arg)
	switch cmd {
	case "/plan":
		on, ok := tui.PlanSwitch(arg, s.PlanMode())
		if !ok {
			fmt.Fprintln(w, "(use /plan, /plan on or /plan off)")
			return true, nil
		}
		if err := s.SetPlanMode(c.Context(), on); err != nil {
			return true, err
		}
		fmt.Fprintln(w, planLine(on, ""))
		return true, nil
	case "/goal":
		return true, goalCommand(c, s, arg)
	}
	return false, nil
}

func goalCommand(c *cobra.Command, s *harness.Session, arg string) error {
	w := c.ErrOrStderr()
	ctx := c.Context()
	var g session.Goal
	var err error
	action, isAction := tui.GoalAction(arg)
	switch {
	case arg == "":
		if cur, ok := s.Goal(); ok {
			fmt.Fprintln(w, "("+termsafe.String(goal.Describe(cur))+")")
		} else {
			fmt.Fprintln(w, "(no goal; set one with /goal OBJECTIVE)")
		}
		return nil
	case isAction:
		g, err = s.UpdateGoal(ctx, action, "", 0)
	default:
		if g, err = s.SetGoal(ctx, arg, 0); err == nil {
			fmt.Fprintln(w, "("+termsafe.String(goal.Describe(g))+")")
			ictx, stop := interruptContext(ctx)
			defer stop()
			_, err = s.RunGoal(ictx)
			return err
		}
	}
	if err != nil {
		fmt.Fprintf(w, "(%s)\n", termsafe.String(err.Error()))
		return nil
	}
	fmt.Fprintln(w, "("+termsafe.String(goal.Describe(g))+")")
	if g.Status == session.GoalActive {
		ictx, stop := interruptContext(ctx)
		defer stop()
		_, err = s.RunGoal(ictx)
	}
	return err
}

// goalDone names a goal change in the output.
var goalDone = map[string]string{goal.ActionCreate: "set", goal.ActionEdit: "edited", goal.ActionPause: "paused", goal.ActionResume: "resumed",
	goal.ActionComplete: "complete", goal.ActionBlocked: "blocked", goal.ActionMaxRounds: "ended by its round cap"}

func planLine(on bool, by string) string {
	switch {
	case on:
		return "plan mode on: every tool is read-only until you approve a plan"
	case by == plan.ByApproval:
		return "plan approved: plan mode off, the work starts"
	}
	return "plan mode off"
}

// agenticText prints plan mode, goals and subagents in the text output;
// it reports whether it printed ev.
func (p *printer) agenticText(ev session.Event) bool {
	switch ev.Type {
	case session.TypePlanMode:
		var d session.PlanMode
		if json.Unmarshal(ev.Data, &d) == nil {
			p.line(planLine(d.Active, d.By))
		}
	case session.TypeGoalCreate, session.TypeGoalUpdate:
		var d session.GoalChange
		if json.Unmarshal(ev.Data, &d) == nil {
			p.line("goal " + goalDone[d.Action] + ": " + termsafe.Line(goal.Describe(d.Goal)))
		}
	case session.TypeGoalRound:
		var d session.GoalRound
		if json.Unmarshal(ev.Data, &d) == nil {
			p.line(fmt.Sprintf("— goal round %d of %d —", d.Round, d.MaxRounds))
		}
	case session.TypeSubagentStart:
		var d session.SubagentStart
		if json.Unmarshal(ev.Data, &d) == nil {
			bg := ""
			if d.Background {
				bg = " in the background"
			}
			p.line(fmt.Sprintf("  ⇢ subagent %s (%s) started%s", d.Child, termsafe.Clip(d.Description, 80), bg))
		}
	case session.TypeSubagentEnd:
		var d session.SubagentEnd
		if json.Unmarshal(ev.Data, &d) == nil {
			p.line(fmt.Sprintf("  ⇠ subagent %s %s", d.Child, d.Status))
		}
	case session.TypeWorkflowPhase:
		var d session.WorkflowPhase
		if json.Unmarshal(ev.Data, &d) == nil {
			p.line(phaseLine(d))
		}
	case session.TypeRalphRound:
		var d session.RalphRound
		if json.Unmarshal(ev.Data, &d) == nil {
			p.line(fmt.Sprintf("  — ralph round %d of %d: %s — %s", d.Round, d.MaxRounds, termsafe.Line(d.Status), clip(d.Report, 100)))
		}
	case session.TypeToolCall:
		var d session.ToolCall
		if json.Unmarshal(ev.Data, &d) != nil || d.Name != plan.ExitName {
			return false
		}
		var in toolbox.ExitPlanInput
		if json.Unmarshal([]byte(d.Arguments), &in) != nil {
			return false
		}
		p.line("→ exit_plan_mode: the plan")
		for _, l := range strings.Split(strings.TrimRight(in.Plan, "\n"), "\n") {
			p.line("  │ " + termsafe.Line(l))
		}
	default:
		return false
	}
	return true
}

// childrenOf lists the subagent sessions of session id (none when the
// listing cannot be read: show still shows the session itself).
func childrenOf(ctx context.Context, homeFlag, id string) []session.Summary {
	home, err := harness.OpenHome(homeFlag)
	if err != nil {
		return []session.Summary{}
	}
	defer home.Close()
	kids, err := home.Children(ctx, id)
	if err != nil || kids == nil {
		return []session.Summary{}
	}
	return kids
}

// showChildren ends ptc session show's text with the session's children.
func showChildren(w io.Writer, kids []session.Summary) error {
	if len(kids) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nsubagents (%d):\n", len(kids))
	for _, k := range kids {
		status := k.Status
		if k.Owner.Live {
			status = "live, " + status
		}
		_, err := fmt.Fprintf(w, "  %s  depth %d  call %s  %-12s %s\n", k.Header.ID, k.Header.Depth, termsafe.Line(k.Header.ParentCall), status, termsafe.Clip(k.Title, 60))
		if err != nil {
			return err
		}
	}
	return nil
}

// phaseLine is a workflow/phase event on one line.
func phaseLine(d session.WorkflowPhase) string {
	s := fmt.Sprintf("  ◆ phase %d %s %s", d.Index, termsafe.Clip(d.Name, 80), termsafe.Line(d.Status))
	if d.Status != session.PhaseStarted {
		s += fmt.Sprintf(" (%d ms)", d.DurationMs)
	}
	if d.Error != "" {
		s += ": " + clip(d.Error, 100)
	}
	return s
}
