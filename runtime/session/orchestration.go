package session

// Event types of workflows and ralph loops (issue 24). Names are part of
// the public format: add, never rename.
var (
	// TypeWorkflowPhase records a workflow script's phase(name, fn):
	// once when it starts and once when it ends.
	TypeWorkflowPhase = eventType("workflow/phase")
	// TypeRalphRound records one round of a ralph loop once its child
	// has ended.
	TypeRalphRound = eventType("ralph/round")
)

// Workflow phase statuses (WorkflowPhase.Status).
const (
	PhaseStarted   = "started"
	PhaseCompleted = "completed"
	PhaseFailed    = "failed"
)

// WorkflowPhase is the data of workflow/phase: phase Index (from 1, in
// the order phases started) called Name of the workflow call CallID
// started, completed or failed; an ended phase has its wall time.
type WorkflowPhase struct {
	CallID     string `json:"callId"`
	Index      int    `json:"index"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	DurationMs int64  `json:"durationMs,omitempty"`
	Error      string `json:"error,omitempty"`
}

// Ralph round statuses (RalphRound.Status): the child reported the
// objective met, blocked, or more work left; or the round failed (the
// child's turn did not complete).
const (
	RalphDone     = "done"
	RalphBlocked  = "blocked"
	RalphContinue = "continue"
	RalphFailed   = "failed"
)

// RalphRound is the data of ralph/round: round Round of at most MaxRounds
// of the ralph call CallID ran child session Child, which ended with
// Status and Report (clipped; the child's log keeps it whole).
type RalphRound struct {
	CallID    string `json:"callId"`
	Round     int    `json:"round"`
	MaxRounds int    `json:"maxRounds"`
	Child     string `json:"child"`
	Status    string `json:"status"`
	Report    string `json:"report,omitempty"`
}
