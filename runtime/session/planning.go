package session

// Event types of plan mode, goals and subagents (issue 17). Names are part
// of the public format: add, never rename.
var (
	// TypePlanMode records plan mode switching on or off.
	TypePlanMode = eventType("plan/mode")
	// TypeGoalCreate records a new goal; TypeGoalUpdate every later change
	// of it (an update_goal call, the round cap); both carry the whole
	// goal as it is after the change.
	TypeGoalCreate = eventType("goal/create")
	TypeGoalUpdate = eventType("goal/update")
	// TypeGoalRound is appended right before the turn of a goal round.
	TypeGoalRound = eventType("goal/round")
	// TypeSubagentStart and TypeSubagentEnd bracket a child session a
	// subagent call started.
	TypeSubagentStart = eventType("subagent/start")
	TypeSubagentEnd   = eventType("subagent/end")
)

// PlanMode is the data of plan/mode. By says who switched: "user" (--plan,
// /plan), "preset" (the preset's default), "plan-approved" (the user
// approved an exit_plan_mode call, whose id is CallID and whose plan is
// Plan).
type PlanMode struct {
	Active bool   `json:"active"`
	By     string `json:"by"`
	CallID string `json:"callId,omitempty"`
	Plan   string `json:"plan,omitempty"`
}

// Goal statuses.
const (
	GoalActive    = "active"
	GoalPaused    = "paused"
	GoalComplete  = "complete"
	GoalBlocked   = "blocked"
	GoalMaxRounds = "max-rounds" // the round cap ended it
)

// Goal is an objective the agent works on over several rounds. Revision
// counts its changes from 1 (update_goal compares it before changing
// anything); Rounds is how many rounds have started.
type Goal struct {
	ID            string `json:"id"`
	Objective     string `json:"objective"`
	MaxRounds     int    `json:"maxRounds"`
	Status        string `json:"status"`
	Revision      int    `json:"revision"`
	Rounds        int    `json:"rounds"`
	BlockedReason string `json:"blockedReason,omitempty"`
}

// GoalChange is the data of goal/create and goal/update: the goal after
// the change, the action (create, edit, pause, resume, complete, blocked,
// max-rounds), who asked ("user" directly, "agent" through a tool call
// CallID, "runtime" for the cap) and in which kind of turn ("user" or
// "round").
type GoalChange struct {
	Goal   Goal   `json:"goal"`
	Action string `json:"action"`
	By     string `json:"by"`
	Turn   string `json:"turn,omitempty"`
	CallID string `json:"callId,omitempty"`
}

// GoalRound is the data of goal/round: round Round of MaxRounds of goal
// GoalID starts with the next turn.
type GoalRound struct {
	GoalID    string `json:"goalId"`
	Round     int    `json:"round"`
	MaxRounds int    `json:"maxRounds"`
}

// Subagent statuses (SubagentEnd.Status).
const (
	SubagentCompleted = "completed"
	SubagentFailed    = "failed"
	SubagentStopped   = "stopped"
)

// SubagentStart is the data of subagent/start: call CallID started child
// session Child at depth Depth.
type SubagentStart struct {
	CallID      string `json:"callId"`
	Child       string `json:"child"`
	Description string `json:"description"`
	Preset      string `json:"preset"`
	Depth       int    `json:"depth"`
	Background  bool   `json:"background,omitempty"`
}

// SubagentEnd is the data of subagent/end: how the child ended, its final
// answer (or the partial text of a failed one) and the failure.
type SubagentEnd struct {
	CallID  string `json:"callId"`
	Child   string `json:"child"`
	Status  string `json:"status"`
	Text    string `json:"text,omitempty"`
	Failure string `json:"failure,omitempty"`
}
