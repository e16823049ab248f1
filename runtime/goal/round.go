package goal

import (
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Describe is the goal in one line, for the model and the terminal.
func Describe(g session.Goal) string {
	s := fmt.Sprintf("%s (revision %d, %s, %d of %d rounds): %s", g.ID, g.Revision, g.Status, g.Rounds, g.MaxRounds, g.Objective)
	if g.BlockedReason != "" {
		s += " — blocked: " + g.BlockedReason
	}
	return s
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
