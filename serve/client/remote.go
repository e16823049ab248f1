package client

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/compact"
	"github.com/ptc-dev/ptc/runtime/llm/models"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/slash"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/serve"
)

// Remote is a served session as a terminal front end sees it: the
// methods of the TUI's backend, over HTTP. Events arrive through the
// session's event stream and are kept, so Events and Subscribe behave as
// on a local session; prompts, cancels, settings and compaction are
// requests; pending approvals and questions go to the answerer given to
// Attach (the TUI's dialog), and the first client to answer wins.
type Remote struct {
	c          *Client
	ans        tools.Answerer
	told       func(string)
	historyDir string

	mu      sync.Mutex
	id      string
	rec     serve.Record
	events  []session.Event
	subs    map[int]func(session.Event)
	nextSub int
	dropped []string
	stop    context.CancelFunc
	change  chan struct{} // closed and renewed on every event
}

// Attach follows session id of c (an id or a unique prefix) until Close;
// it returns once the session's events so far have arrived.
func Attach(ctx context.Context, c *Client, id string, ans tools.Answerer, historyDir string, told func(string)) (*Remote, error) {
	r := &Remote{c: c, ans: ans, told: told, historyDir: historyDir, subs: map[int]func(session.Event){}, change: make(chan struct{})}
	if err := r.follow(ctx, id); err != nil {
		return nil, err
	}
	return r, nil
}

// follow switches to session id: its record, its stream, its requests.
func (r *Remote) follow(ctx context.Context, id string) error {
	rec, err := r.c.Get(ctx, id)
	if err != nil {
		return err
	}
	sctx, stop := context.WithCancel(context.Background())
	r.mu.Lock()
	if r.stop != nil {
		r.stop()
	}
	r.id, r.rec, r.events, r.stop = rec.ID, rec, nil, stop
	r.mu.Unlock()
	w := Watch(sctx, r.c, rec.ID, r.ans, r.told)
	go func() {
		err := r.c.Events(sctx, rec.ID, -1, func(e session.Event) error {
			r.mu.Lock()
			if r.id != rec.ID {
				r.mu.Unlock()
				return context.Canceled
			}
			r.events = append(r.events, e)
			subs := make([]func(session.Event), 0, len(r.subs))
			for _, fn := range r.subs {
				subs = append(subs, fn)
			}
			close(r.change)
			r.change = make(chan struct{})
			r.mu.Unlock()
			for _, fn := range subs {
				fn(e)
			}
			w.Observe(e)
			switch e.Type {
			case session.TypeSettings, session.TypePlanMode, session.TypeTurnStart, session.TypeTurnEnd:
				r.refresh(sctx)
			}
			return nil
		})
		if errors.Is(err, ErrEnded) && r.told != nil {
			r.told("the session was deleted on the server")
		}
	}()
	// Catch up with what the session held when it was looked up.
	return r.waitFor(ctx, func() bool { return int64(len(r.events)) >= rec.Events })
}

func (r *Remote) refresh(ctx context.Context) {
	rec, err := r.c.Get(ctx, r.ID())
	if err != nil {
		return
	}
	r.mu.Lock()
	if rec.ID == r.id {
		r.rec = rec
	}
	r.mu.Unlock()
}

// waitFor waits until cond (called under r.mu) holds or ctx ends.
func (r *Remote) waitFor(ctx context.Context, cond func() bool) error {
	for {
		r.mu.Lock()
		ok, ch := cond(), r.change
		r.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second): // a record refresh may satisfy cond
		}
	}
}

// Close stops following.
func (r *Remote) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stop != nil {
		r.stop()
	}
}

// ID is the session's id.
func (r *Remote) ID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.id
}

func (r *Remote) record() serve.Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rec
}

// Settings are the session's settings as last seen.
func (r *Remote) Settings() session.Settings {
	s := r.record().Settings
	return session.Settings{Workspace: s.Workspace, Preset: s.Preset, Model: s.Model, BaseURL: s.BaseURL, Sandbox: s.Sandbox,
		Approval: s.Approval, MaxSteps: s.MaxSteps, ContextWindow: s.ContextWindow, NoCompact: s.NoCompact, Network: s.Network}
}

// Model is what the server's model table says of the session's model.
func (r *Remote) Model() models.Model {
	rec := r.record()
	if rec.Model == nil {
		return models.Model{ID: rec.Settings.Model}
	}
	return models.Model{ID: rec.Model.Name, ContextWindow: rec.Model.ContextWindow, Known: true}
}

// Models is the server's model table.
func (r *Remote) Models() []models.Model {
	ms, err := r.c.Models(context.Background())
	if err != nil {
		return nil
	}
	out := make([]models.Model, 0, len(ms))
	for _, m := range ms {
		out = append(out, models.Model{ID: m.Name, ContextWindow: m.ContextWindow, Known: true})
	}
	return out
}

// Events is every event received so far.
func (r *Remote) Events() []session.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]session.Event(nil), r.events...)
}

// Subscribe calls fn with every event received from now on.
func (r *Remote) Subscribe(fn func(session.Event)) (stop func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.nextSub
	r.nextSub++
	r.subs[n] = fn
	return func() {
		r.mu.Lock()
		delete(r.subs, n)
		r.mu.Unlock()
	}
}

// Run sends input and waits for the turn it starts to end; cancelling ctx
// cancels the turn on the server.
func (r *Remote) Run(ctx context.Context, input string) (agent.Outcome, error) {
	r.mu.Lock()
	from := len(r.events)
	id := r.id
	r.mu.Unlock()
	if _, err := r.c.Prompt(ctx, id, input); err != nil {
		return agent.Outcome{}, err
	}
	ended := func() bool {
		for _, e := range r.events[min(from, len(r.events)):] {
			if e.Type == session.TypeTurnEnd {
				return true
			}
		}
		return false
	}
	if err := r.waitFor(ctx, ended); err != nil {
		cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		r.Cancel()
		_ = r.waitFor(cctx, ended)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return agent.OutcomeOf(r.events[min(from, len(r.events)):]), nil
}

// Followup sends text; the server queues it behind the running turn.
func (r *Remote) Followup(text string) {
	if _, err := r.c.Prompt(context.Background(), r.ID(), text); err != nil && r.told != nil {
		r.told("the prompt could not be sent: " + err.Error())
	}
	r.refresh(context.Background())
}

// Queued is how many prompts wait on the server.
func (r *Remote) Queued() int { return r.record().Queued }

// TakeFollowups returns the prompts the last Cancel dropped.
func (r *Remote) TakeFollowups() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.dropped
	r.dropped = nil
	return out
}

// Cancel cancels the running turn on the server.
func (r *Remote) Cancel() bool {
	ok, dropped, err := r.c.Cancel(context.Background(), r.ID())
	r.mu.Lock()
	r.dropped = append(r.dropped, dropped...)
	r.mu.Unlock()
	return err == nil && ok
}

// Compact summarises the session on the server.
func (r *Remote) Compact(ctx context.Context) (compact.Result, error) {
	passes, before, after, failure, err := r.c.Compact(ctx, r.ID())
	return compact.Result{Passes: passes, TokensBefore: before, TokensAfter: after, Failure: failure}, err
}

// fieldNames are the API's names of the settings fields.
var fieldNames = map[session.Field]string{
	session.FieldPreset: "preset", session.FieldModel: "model", session.FieldBaseURL: "base_url", session.FieldSandbox: "sandbox",
	session.FieldApproval: "approval", session.FieldMaxSteps: "max_steps", session.FieldContextWindow: "context_window",
	session.FieldNoCompact: "no_compact", session.FieldNetwork: "network",
}

// Change changes settings between turns on the server.
func (r *Remote) Change(ctx context.Context, s session.Settings, fields ...session.Field) error {
	values := map[session.Field]any{
		session.FieldPreset: s.Preset, session.FieldModel: s.Model, session.FieldBaseURL: s.BaseURL, session.FieldSandbox: s.Sandbox,
		session.FieldApproval: s.Approval, session.FieldMaxSteps: s.MaxSteps, session.FieldContextWindow: s.ContextWindow,
		session.FieldNoCompact: s.NoCompact, session.FieldNetwork: s.Network,
	}
	body := map[string]any{}
	for _, f := range fields {
		name, ok := fieldNames[f]
		if !ok {
			return errors.New("the " + string(f) + " of a served session cannot change")
		}
		body[name] = values[f]
	}
	return r.setRecord(r.c.Change(ctx, r.ID(), body))
}

func (r *Remote) setRecord(rec serve.Record, err error) error {
	if err != nil {
		return err
	}
	r.mu.Lock()
	if rec.ID == r.id {
		r.rec = rec
	}
	r.mu.Unlock()
	return nil
}

// Sessions lists the server's sessions of the same workspace.
func (r *Remote) Sessions(ctx context.Context) ([]session.Summary, error) {
	recs, err := r.c.List(ctx, r.Settings().Workspace)
	if err != nil {
		return nil, err
	}
	out := make([]session.Summary, 0, len(recs))
	for _, x := range recs {
		set := session.Settings{Workspace: x.Settings.Workspace, Preset: x.Settings.Preset, Model: x.Settings.Model, Sandbox: x.Settings.Sandbox, Approval: x.Settings.Approval}
		out = append(out, session.Summary{Header: session.Header{ID: x.ID, CreatedAt: x.CreatedAt, Settings: set}, Settings: set,
			Title: x.Title, UpdatedAt: x.UpdatedAt, Events: x.Events, Turns: x.Turns, Status: x.Status})
	}
	return out, nil
}

// Switch follows another session of the server: a new one with the same
// settings when id is "".
func (r *Remote) Switch(ctx context.Context, id string) error {
	if id == "" {
		rec, err := r.c.Create(ctx, r.record().Settings)
		if err != nil {
			return err
		}
		id = rec.ID
	}
	return r.follow(ctx, id)
}

// ResumeHint is the command that follows this session again.
func (r *Remote) ResumeHint() string { return "ptc attach " + r.ID() + " --serve " + r.c.URL() }

// HistoryDir is where this terminal keeps its input history.
func (r *Remote) HistoryDir() string { return r.historyDir }

// Commands are none: the server's custom slash commands are not served
// (yet), so a remote TUI sends "/name args" only for its built-ins.
func (r *Remote) Commands() slash.Set { return slash.Set{} }

// PlanMode reports whether the session is in plan mode.
func (r *Remote) PlanMode() bool { return r.record().PlanMode }

// SetPlanMode switches plan mode on the server.
func (r *Remote) SetPlanMode(ctx context.Context, on bool) error {
	return r.setRecord(r.c.Change(ctx, r.ID(), map[string]any{"plan_mode": on}))
}

// errNoGoals: goals are not served yet.
var errNoGoals = errors.New("goals cannot be set over ptc serve yet; run ptc --goal in a terminal")

// Goal reports no goal: goals are not served yet.
func (r *Remote) Goal() (session.Goal, bool) { return session.Goal{}, false }

// SetGoal is not served yet.
func (r *Remote) SetGoal(context.Context, string) (session.Goal, error) {
	return session.Goal{}, errNoGoals
}

// UpdateGoal is not served yet.
func (r *Remote) UpdateGoal(context.Context, string) (session.Goal, error) {
	return session.Goal{}, errNoGoals
}

// RunGoal has nothing to do: the server runs queued prompts itself.
func (r *Remote) RunGoal(context.Context) (agent.Outcome, error) { return agent.Outcome{}, nil }

// Settle has nothing to do: the server settles its sessions itself.
func (r *Remote) Settle(context.Context) (agent.Outcome, bool, error) {
	return agent.Outcome{}, false, nil
}
