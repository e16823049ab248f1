package harness

import (
	"context"
	"sync"

	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/checkpoint"
	"github.com/ptc-dev/ptc/runtime/compact"
	"github.com/ptc-dev/ptc/runtime/llm/models"
	"github.com/ptc-dev/ptc/runtime/session"
)

// Seat is a session a front end holds open, with the home it was opened
// in; Close releases both.
type Seat interface {
	Session() *Session
	Home() *Home
	Close() error
}

// Front is the session a front end shows, which the user may replace by
// another (/new, /resume): the TUI's backend, and what the coming web and
// editor front ends need too. Every method works on the session in force
// when it is called. It is safe for concurrent use.
type Front struct {
	reopen  func(ctx context.Context, id string, like *Session) (Seat, error)
	onClose func(id string, err error)

	mu   sync.Mutex
	seat Seat
}

// NewFront holds first. reopen opens the session to switch to: a new one
// like the given session when id is "", else the one named (an id or a
// unique prefix); the front end's own flags, answerer and notes go with
// it. onClose hears a failure to close the session switched away from
// (nil: ignored).
func NewFront(first Seat, reopen func(ctx context.Context, id string, like *Session) (Seat, error), onClose func(id string, err error)) *Front {
	if onClose == nil {
		onClose = func(string, error) {}
	}
	return &Front{seat: first, reopen: reopen, onClose: onClose}
}

// Seat is the session in force and its home.
func (f *Front) Seat() Seat {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seat
}

func (f *Front) cur() *Session { return f.Seat().Session() }

// Switch opens the other session first, so a failure (an unknown id, a
// session another process holds) leaves the current one in place; then
// it closes the current one.
func (f *Front) Switch(ctx context.Context, id string) error {
	old := f.Seat()
	next, err := f.reopen(ctx, id, old.Session())
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.seat = next
	f.mu.Unlock()
	if err := old.Close(); err != nil {
		f.onClose(old.Session().ID(), err)
	}
	return nil
}

// Close closes the session in force and its home.
func (f *Front) Close() error { return f.Seat().Close() }

// Models lists the home's model table (nil when it cannot be read).
func (f *Front) Models() []models.Model {
	t, err := f.Seat().Home().Models()
	if err != nil {
		return nil
	}
	return t.List()
}

// Sessions lists the sessions of the current workspace, newest first.
func (f *Front) Sessions(ctx context.Context) ([]session.Summary, error) {
	s := f.Seat()
	return s.Home().Catalog().List(ctx, session.ListOptions{Cwd: s.Session().Settings().Workspace})
}

// HistoryDir is where input history files live: the home.
func (f *Front) HistoryDir() string { return f.Seat().Home().Dir() }

// SetGoal sets the goal the user typed, with the default cap.
func (f *Front) SetGoal(ctx context.Context, objective string) (session.Goal, error) {
	return f.cur().SetGoal(ctx, objective, 0)
}

// UpdateGoal applies the user's pause, resume or clear.
func (f *Front) UpdateGoal(ctx context.Context, action string) (session.Goal, error) {
	return f.cur().UpdateGoal(ctx, action, "", 0)
}

// ID is the id of the session in force.
func (f *Front) ID() string { return f.cur().ID() }

// Settings are the settings in force (Session.Settings).
func (f *Front) Settings() session.Settings { return f.cur().Settings() }

// Model is the model table's entry in force (Session.Model).
func (f *Front) Model() models.Model { return f.cur().Model() }

// Events is every event of the session so far (Session.Events).
func (f *Front) Events() []session.Event { return f.cur().Events() }

// Subscribe calls fn with every event appended from now on
// (Session.Subscribe).
func (f *Front) Subscribe(fn func(session.Event)) func() { return f.cur().Subscribe(fn) }

// Run runs a turn (Session.Run).
func (f *Front) Run(ctx context.Context, input string) (agent.Outcome, error) {
	return f.cur().Run(ctx, input)
}

// Followup queues input typed while a turn runs (Session.Followup).
func (f *Front) Followup(text string) { f.cur().Followup(text) }

// Queued counts the queued follow-ups (Session.Queued).
func (f *Front) Queued() int { return f.cur().Queued() }

// TakeFollowups removes and returns the queued follow-ups
// (Session.TakeFollowups).
func (f *Front) TakeFollowups() []string { return f.cur().TakeFollowups() }

// Cancel cancels the running turn or compaction (Session.Cancel).
func (f *Front) Cancel() bool { return f.cur().Cancel() }

// Compact compacts the context now (Session.Compact).
func (f *Front) Compact(ctx context.Context) (compact.Result, error) { return f.cur().Compact(ctx) }

// Change switches settings between turns (Session.Change).
func (f *Front) Change(ctx context.Context, s session.Settings, fields ...session.Field) error {
	return f.cur().Change(ctx, s, fields...)
}

// PlanMode reports whether plan mode is on (Session.PlanMode).
func (f *Front) PlanMode() bool { return f.cur().PlanMode() }

// SetPlanMode switches plan mode (Session.SetPlanMode).
func (f *Front) SetPlanMode(ctx context.Context, on bool) error { return f.cur().SetPlanMode(ctx, on) }

// Goal is the session's goal (Session.Goal).
func (f *Front) Goal() (session.Goal, bool) { return f.cur().Goal() }

// RunGoal runs the queued follow-ups, then the goal's rounds
// (Session.RunGoal).
func (f *Front) RunGoal(ctx context.Context) (agent.Outcome, error) { return f.cur().RunGoal(ctx) }

// Settle waits for background subagents after a turn (Session.Settle).
func (f *Front) Settle(ctx context.Context) (agent.Outcome, bool, error) { return f.cur().Settle(ctx) }

// History is the current session's workspace history (Session.History).
func (f *Front) History(ctx context.Context) (checkpoint.History, checkpoint.Store, error) {
	return f.cur().History(ctx)
}

// Rewind rewinds the current session (Session.Rewind).
func (f *Front) Rewind(ctx context.Context, toTurn int, filesOnly, force bool) (checkpoint.Plan, error) {
	return f.cur().Rewind(ctx, RewindOptions{ToTurn: toTurn, FilesOnly: filesOnly, Force: force})
}
