package tui

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/compact"
	"github.com/ptc-dev/ptc/runtime/llm/models"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/slash"
)

// Backend is the session the TUI drives: in ptc a harness session with
// its home, in tests a fake. It is the seam between the terminal and the
// runtime; the TUI never touches a log or a store itself.
//
// Run, Compact, Change and Switch block; the TUI calls them off its event
// loop. Subscribe's fn runs on the goroutine appending events and must be
// quick.
type Backend interface {
	// ID is the current session's id.
	ID() string
	// Settings and Model describe the session in force.
	Settings() session.Settings
	Model() models.Model
	// Models lists the model table (for /model).
	Models() []models.Model
	// Events is every event of the current session so far.
	Events() []session.Event
	// Subscribe calls fn with every event appended from now on.
	Subscribe(fn func(session.Event)) (stop func())
	Run(ctx context.Context, input string) (agent.Outcome, error)
	// Followup queues input typed while a turn runs: the session runs it
	// as the next turn, ahead of any further goal round. Queued counts
	// what waits; TakeFollowups removes and returns it (after a cancel).
	Followup(text string)
	Queued() int
	TakeFollowups() []string
	// Cancel cancels the running turn or compaction; false when idle.
	Cancel() bool
	Compact(ctx context.Context) (compact.Result, error)
	// Change switches settings between turns.
	Change(ctx context.Context, s session.Settings, fields ...session.Field) error
	// Sessions lists the sessions of the current workspace, newest first.
	Sessions(ctx context.Context) ([]session.Summary, error)
	// Switch closes the current session and opens another: a new one
	// with the same settings when id is "", else the one named.
	Switch(ctx context.Context, id string) error
	// ResumeHint is a shell command that continues the current session.
	ResumeHint() string
	// HistoryDir is where input history files live (the ptc home).
	HistoryDir() string
	// Commands are the custom slash commands (.ptc/commands,
	// $PTC_HOME/commands), read afresh on each call.
	Commands() slash.Set

	// Plan mode and goals (/plan, /goal).
	PlanMode() bool
	SetPlanMode(ctx context.Context, on bool) error
	Goal() (session.Goal, bool)
	SetGoal(ctx context.Context, objective string) (session.Goal, error)
	UpdateGoal(ctx context.Context, action string) (session.Goal, error)
	// RunGoal runs the queued follow-ups, then the goal's rounds while it
	// is active (blocks like Run).
	RunGoal(ctx context.Context) (agent.Outcome, error)
	// Settle waits for background subagents after a turn; each one's
	// completion notice runs a turn of its own (ran reports one did).
	Settle(ctx context.Context) (out agent.Outcome, ran bool, err error)
}
