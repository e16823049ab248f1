package tui

import (
	"fmt"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
)

// extState is what the status line shows of plan mode, the goal and the
// running subagents.
type extState struct {
	planMode bool
	goal     string // the active goal, with its round
	goalObj  string
	children map[string]bool // running child sessions by id
	jobs     map[string]bool // running background jobs by id (jobs.go)
}

// extension folds the events of plan mode, goals and subagents; others
// are ignored.
func (t *transcript) extension(ev session.Event) {
	switch ev.Type {
	case session.TypePlanMode:
		var d session.PlanMode
		if !decode(ev, &d) {
			return
		}
		t.ext.planMode = d.Active
		switch {
		case d.Active:
			t.notice(toneWarn, "plan mode on: every tool is read-only until you approve a plan (/plan off leaves it)")
		case d.CallID != "":
			t.notice(toneInfo, "plan approved: plan mode off, the work starts")
		default:
			t.notice(toneInfo, "plan mode off")
		}
	case session.TypeGoalCreate, session.TypeGoalUpdate:
		var d session.GoalChange
		if !decode(ev, &d) {
			return
		}
		t.ext.goal, t.ext.goalObj = "", ""
		if d.Goal.Status == session.GoalActive {
			t.ext.goalObj = d.Goal.Objective
			t.ext.goal = goalText(d.Goal.Objective, d.Goal.Rounds, d.Goal.MaxRounds)
		}
		t.notice(toneInfo, "goal "+termsafe.Line(d.Action)+": "+termsafe.Clip(d.Goal.Objective, 200)+" ("+termsafe.Line(d.Goal.Status)+")")
	case session.TypeGoalRound:
		var d session.GoalRound
		if decode(ev, &d) && t.ext.goal != "" {
			t.ext.goal = goalText(t.ext.goalObj, d.Round, d.MaxRounds)
			t.notice(toneInfo, fmt.Sprintf("goal round %d of %d", d.Round, d.MaxRounds))
		}
	case session.TypeSubagentStart:
		var d session.SubagentStart
		if !decode(ev, &d) {
			return
		}
		if t.ext.children == nil {
			t.ext.children = map[string]bool{}
		}
		t.ext.children[d.Child] = true
		t.notice(toneInfo, "subagent started: "+termsafe.Clip(d.Description, 100)+" (session "+termsafe.Line(d.Child)+")")
	case session.TypeSubagentEnd:
		var d session.SubagentEnd
		if !decode(ev, &d) {
			return
		}
		delete(t.ext.children, d.Child)
		t.notice(toneInfo, "subagent "+termsafe.Line(d.Child)+" "+termsafe.Line(d.Status))
	case session.TypeJobStart, session.TypeJobEnd:
		t.jobEvent(ev)
	}
}

func goalText(objective string, round, maxRounds int) string {
	return termsafe.Clip(objective, 40) + fmt.Sprintf(" (%d/%d)", round, maxRounds)
}
