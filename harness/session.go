package harness

import (
	"context"
	"errors"
	"fmt"
	"github.com/ptc-dev/ptc/runtime/hooks"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/ptc-dev/ptc/presets"
	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/compact"
	"github.com/ptc-dev/ptc/runtime/llm/models"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/live"
	"github.com/ptc-dev/ptc/runtime/structured"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// Options open a session. The zero value starts a new session in the
// current directory with the default preset (and needs a model key).
type Options struct {
	// Resume names the session to continue: an id, or a prefix of exactly
	// one id. Empty starts a new session.
	Resume string
	// Settings of a new session; zero fields take defaults. On resume
	// only the fields named in Override are taken from here, replacing
	// the recorded ones; that change is logged as session/settings.
	Settings session.Settings
	Override []session.Field
	// Answerer is a front end that puts approvals, questions and plans
	// to a person (the terminal prompt, the TUI): it attends the
	// session's Approvals from the start. nil leaves the registry to
	// front ends that join later (Session.Approvals); while none is
	// there, approvals fail closed (tools.ErrNoAnswerer).
	Answerer tools.Answerer
	// Observer sees every event of the session as it is appended, in seq
	// order, on the appending goroutine (so it must be quick). It is
	// subscribed before the first event, repairs included.
	Observer func(session.Event)
	// Getenv reads API keys; default os.Getenv.
	Getenv func(string) string
	// Getwd resolves relative paths; default os.Getwd.
	Getwd func() (string, error)
	// Now stamps events; default time.Now.
	Now func() time.Time
	// Retry replaces the model retry policy (tests).
	Retry agent.Retrier
	// Hooks are the loop's extension points.
	Hooks agent.Hooks
	// ExtraTools join the preset's tools (MCP servers and other sources).
	ExtraTools []tools.Tool
	// ToolSource supplies tools that may change during the session; see
	// ToolSource. MCP servers come through MCP instead.
	ToolSource ToolSource
	// MCP gives the session MCP servers: StartMCP starts them once the
	// caller is ready to show their approvals and notices, their tools
	// join at the next step boundary, and Close stops them. Its Workspace
	// is the session's; a nil Approvals means the session's service.
	MCP *MCPOptions
	// Toolset replaces the preset's toolset builder (tests).
	Toolset func(ToolsetConfig) (*tools.Registry, error)
	// Parent links a new session to the session and call that started it
	// (a subagent); its depth is the parent's plus one.
	Parent *Parent
	// Plan switches plan mode on or off at open (--plan); nil keeps the
	// recorded mode, or for a new session the preset's default.
	Plan *bool
	// ApprovePlan approves every exit_plan_mode plan without asking
	// (ptc run --approve-plan).
	ApprovePlan bool
	// OutputSchema, when set, makes every turn's final answer a JSON
	// value valid against it: the structured_output section joins the
	// system prompt, and RunStructured checks the answer (one retry).
	OutputSchema *structured.Schema
	// NoTitle keeps the model from titling the session after its first
	// turn (--no-title; a preset's title: false does the same).
	NoTitle bool
}

// Parent names the session and call a child session was started from.
type Parent struct {
	ID     string
	CallID string
	Depth  int // the parent's depth
}

func (o Options) withDefaults() Options {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Getwd == nil {
		o.Getwd = os.Getwd
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Session is one open session: its log, the agent running it and the
// settings in force. One turn runs at a time; Cancel, Subscribe and the
// getters may be called from any goroutine.
type Session struct {
	home  *Home
	opts  Options
	owned session.Held
	log   *session.Log
	feed  *feed
	srv   *live.Server // the owner socket, nil if it could not be made
	scope *scope       // plan mode, the goal, the children (see scope)
	// servers are the session's MCP servers (Options.MCP), nil without.
	servers *mcpSource
	// checkpoints record what turns change in the workspace (nil: the
	// workspace could not be watched).
	checkpoints *checkpoints

	// inbox is the session's one queue of input waiting to enter the
	// log (user follow-ups, subagent notices); every agent a settings
	// change builds shares it. wake is signalled by Followup (Settle
	// waits on it).
	inbox *agent.Inbox
	wake  chan struct{}

	// pinned is what choosing the model at creation had to say (the
	// default it picked); the recorded model no longer says it.
	pinned []string

	mu       sync.Mutex // guards the fields below
	agent    *agent.Agent
	hooks    *hooks.Engine
	settings session.Settings
	model    models.Model
	notices  []string
	resumed  bool
	running  context.CancelFunc // of the running turn, nil when idle
	closed   bool
	titler   titler // who titles the session (title.go)

	turn sync.Mutex // held while a turn runs
}

// Open starts or resumes a session of home. A resumed session whose last
// turn was cut short (a crash, a kill) is repaired first. The caller
// closes the session.
func Open(ctx context.Context, home *Home, opts Options) (*Session, error) {
	opts = opts.withDefaults()
	if err := CheckSettings(opts.Settings); err != nil {
		return nil, err
	}
	var servers *mcpSource
	if opts.MCP != nil {
		if opts.ToolSource != nil {
			return nil, errors.New("a session takes its changing tools from MCP or from a ToolSource, not both")
		}
		servers = &mcpSource{}
		opts.ToolSource = servers
	}
	set, err := home.Presets()
	if err != nil {
		return nil, err
	}
	s := &Session{home: home, opts: opts, feed: newFeed(), inbox: &agent.Inbox{}, wake: make(chan struct{}, 1), servers: servers}
	if opts.Observer != nil {
		s.feed.subscribe(opts.Observer)
	}
	logOpts := session.LogOptions{Now: opts.Now, OnEvent: s.feed.publish}
	var settings session.Settings
	var changed []session.Field
	var preset *presets.Preset
	cat := home.Sessions()
	if opts.Resume == "" {
		var h session.Header
		if h, preset, s.pinned, err = newHeader(opts.Settings, set, opts.Getenv, opts.Getwd); err != nil {
			return nil, err
		}
		settings = h.Settings
		if p := opts.Parent; p != nil {
			h.Parent, h.ParentCall, h.Depth = p.ID, p.CallID, p.Depth+1
		}
		if s.owned, err = cat.Create(ctx, h, logOpts); err != nil {
			return nil, err
		}
		s.log = s.owned.SessionLog()
		if err := s.openScope(ctx, preset, true); err != nil {
			s.owned.Close()
			return nil, errors.Join(err, home.forget(h.ID))
		}
	} else {
		id, err := cat.Resolve(opts.Resume)
		if err != nil {
			return nil, err
		}
		if s.owned, err = cat.Open(ctx, id, logOpts); err != nil {
			return nil, err
		}
		s.log = s.owned.SessionLog()
		recorded, err := s.repair(ctx)
		if err != nil {
			s.owned.Close()
			return nil, err
		}
		if settings, preset, err = resolveSettings(recorded.With(opts.Settings, opts.Override...), set, opts.Getwd); err != nil {
			s.owned.Close()
			return nil, err
		}
		changed = recorded.Diff(settings)
		s.resumed = true
		if err := s.openScope(ctx, preset, false); err != nil {
			s.owned.Close()
			return nil, err
		}
	}
	if err := s.apply(ctx, settings, changed, "resume"); err != nil {
		s.owned.Close()
		if !s.resumed {
			// A pre-flight failure (no key, a bad script): the new
			// session never ran, and is not kept.
			err = errors.Join(err, home.forget(s.ID()))
		}
		return nil, err
	}
	s.openCheckpoints()
	s.serve()
	source := "startup"
	if s.resumed {
		source = "resume"
	}
	s.notifyHooks(ctx, hooks.SessionStart, map[string]any{"source": source})
	return s, nil
}

// repair closes a turn a crash left open and returns the recorded
// settings.
func (s *Session) repair(ctx context.Context) (session.Settings, error) {
	if _, err := s.log.Repair(ctx); err != nil {
		return session.Settings{}, err
	}
	return session.CurrentSettings(s.log.Header(), s.log.Events())
}

// apply builds the agent for settings and, when fields changed, logs the
// change first. s.turn must be held or the session not yet shared.
func (s *Session) apply(ctx context.Context, settings session.Settings, changed []session.Field, reason string) error {
	set, err := s.home.Presets()
	if err != nil {
		return err
	}
	preset, err := set.Get(settings.Preset)
	if err != nil {
		return err
	}
	host, err := s.home.Host()
	if err != nil {
		return err
	}
	table, err := s.home.Models()
	if err != nil {
		return err
	}
	id := s.log.Header().ID
	comp, err := compose(composeInput{
		id: id, preset: preset, settings: settings, host: host, spill: s.home.SpillDir(id), home: s.home.Dir(),
		getenv: s.opts.Getenv, models: table, now: s.opts.Now, extra: s.opts.ExtraTools, source: s.opts.ToolSource,
		buildReg: s.opts.Toolset, retry: s.opts.Retry, hooks: s.opts.Hooks, scope: s.scope, output: s.opts.OutputSchema,
	})
	if err != nil {
		return err
	}
	comp.cfg.Inbox = s.inbox
	s.mu.Lock()
	// An agent replacing one that already sent a request continues the
	// run: its request/header is a change, not a resume.
	comp.cfg.Continues = s.agent != nil && s.agent.Requested()
	s.mu.Unlock()
	a, err := agent.New(comp.cfg, s.log)
	if err != nil {
		return err
	}
	if len(changed) > 0 {
		if _, err := s.log.AppendDurable(ctx, session.TypeSettings, session.SettingsChange{Settings: settings, Changed: changed, Reason: reason}); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.agent, s.settings, s.model, s.notices, s.hooks = a, settings, comp.model, comp.notices, comp.hooks
	s.titler = titler{provider: comp.cfg.Provider, model: comp.cfg.Model, on: preset.Title && !s.opts.NoTitle}
	s.mu.Unlock()
	return nil
}

// ID is the session id.
func (s *Session) ID() string { return s.log.Header().ID }

// Header is the session header as created.
func (s *Session) Header() session.Header { return s.log.Header() }

// Settings are the settings in force.
func (s *Session) Settings() session.Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings
}

// Model is what the model table says about the model in use, with the
// session's context-window override applied: its window and prices.
func (s *Session) Model() models.Model {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model
}

// Notices are lines to show the user once about the model in use (the
// default picked when only OPENAI_API_KEY is set, a model the table does
// not know, a retired one); they are renewed by a settings change.
func (s *Session) Notices() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, n := range append(append([]string(nil), s.pinned...), s.notices...) {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// Resumed reports whether Open continued an existing session.
func (s *Session) Resumed() bool { return s.resumed }

// Warnings are the problems opening the session worked around (a torn
// tail dropped from its log).
func (s *Session) Warnings() []string { return s.log.Warnings() }

// Events returns every event so far (a snapshot).
func (s *Session) Events() []session.Event { return s.log.Events() }

// Record appends one event of typ durably to the session's log, for
// front ends that keep their own facts there (a fleet worker's
// worker/start and worker/end). It returns once the event is stored.
func (s *Session) Record(ctx context.Context, typ string, data any) error {
	_, err := s.log.AppendDurable(ctx, typ, data)
	return err
}

// Sync makes every event appended so far durable (a front end that must
// not lose what it just saw, such as a pending approval, before it waits).
func (s *Session) Sync(ctx context.Context) error { return s.log.Sync(ctx) }

// Subscribe calls fn with every event appended from now on, in seq order,
// on the appending goroutine (fn must be quick), until the returned stop
// function is called.
func (s *Session) Subscribe(fn func(session.Event)) (stop func()) { return s.feed.subscribe(fn) }

// ErrBusy is returned when a turn or a change is asked for while another
// turn runs.
var ErrBusy = errors.New("a turn is already running in this session")

// Run queues input as the next turn and runs it (and any follow-ups
// queued meanwhile), returning the last turn's outcome. A Go error means
// the log could not be written; model and tool failures are in the
// Outcome. Cancelling ctx, or calling Cancel, ends the turn as aborted
// with its record written.
//
// While the session has an active goal, goal rounds follow the turn (see
// RunGoal): user input queued meanwhile goes first, and the outcome is
// the last turn's.
func (s *Session) Run(ctx context.Context, input string) (agent.Outcome, error) {
	return s.run(ctx, &agent.Input{Text: input, Source: session.Source{Kind: "user"}}, false)
}

// RunInput is Run for input that does not come from the user: a notice
// from the runtime (a fleet worker taking over a turn another worker was
// running when it died), logged with its source.
func (s *Session) RunInput(ctx context.Context, in agent.Input) (agent.Outcome, error) {
	return s.run(ctx, &in, false)
}

// run runs input (nil: none) as a turn, or with steering the input waiting
// for the next step (a subagent's notice), then the goal's rounds.
func (s *Session) run(ctx context.Context, input *agent.Input, steering bool) (agent.Outcome, error) {
	if !s.turn.TryLock() {
		return agent.Outcome{}, ErrBusy
	}
	defer s.turn.Unlock()
	defer s.flushCheckpoints(context.WithoutCancel(ctx))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return agent.Outcome{}, session.ErrClosed
	}
	a := s.agent
	s.running = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running = nil
		s.mu.Unlock()
	}()
	s.scope.stop.Store(false)
	first := input
	switch {
	case input != nil:
	case steering:
		if items := s.inbox.TakeSteering(); len(items) > 0 {
			first = &items[0]
			for _, in := range items[1:] {
				s.inbox.Steer(in)
			}
		}
	}
	if first == nil {
		return s.rounds(ctx, a, agent.Outcome{}, false)
	}
	if first == input {
		in := *input
		if err := s.submitPrompt(ctx, &in); err != nil {
			return agent.Outcome{}, err
		}
		first = &in
	}
	out, err := a.RunInput(ctx, *first)
	s.notifyHooks(ctx, hooks.Stop, map[string]any{"stop_reason": out.Reason, "turn": out.Turn, "last_assistant_message": out.Text})
	if err != nil {
		return out, err
	}
	s.title(ctx, out)
	return s.rounds(ctx, a, out, true)
}

// Compact summarises the session now, between turns (ptc session compact,
// /compact): it works even when the context is already over the window,
// in several passes. Cancel stops it like a turn. How it went is in the
// Result; the error is for a log that cannot be written, or ErrBusy while
// a turn runs.
func (s *Session) Compact(ctx context.Context) (compact.Result, error) {
	if !s.turn.TryLock() {
		return compact.Result{}, ErrBusy
	}
	defer s.turn.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	a, closed := s.agent, s.closed
	s.running = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running = nil
		s.mu.Unlock()
	}()
	if closed {
		return compact.Result{}, session.ErrClosed
	}
	return a.Compact(ctx)
}

// Cancel cancels the running turn, if any, and reports whether there was
// one.
func (s *Session) Cancel() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running == nil {
		return false
	}
	s.running()
	s.running = nil
	return true
}

// Change switches settings between turns (a TUI changing model, preset,
// sandbox or approval): the fields named take their values from change;
// the new agent is built before anything is logged, so a change that
// cannot run (an unknown preset, a model without a key) leaves the
// session as it was. The change is logged as session/settings.
func (s *Session) Change(ctx context.Context, change session.Settings, fields ...session.Field) error {
	if !s.turn.TryLock() {
		return ErrBusy
	}
	defer s.turn.Unlock()
	set, err := s.home.Presets()
	if err != nil {
		return err
	}
	cur := s.Settings()
	next, _, err := resolveSettings(cur.With(change, fields...), set, s.opts.Getwd)
	if err != nil {
		return err
	}
	diff := cur.Diff(next)
	if len(diff) == 0 {
		return nil
	}
	return s.apply(ctx, next, diff, "change")
}

// Close makes the log durable and releases the session. A running turn
// is cancelled first.
func (s *Session) Close() error {
	s.Cancel()
	s.turn.Lock()
	defer s.turn.Unlock()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.scope.children.stopAll()
	s.scope.leave()
	s.closeJobs()
	err := errors.Join(s.closeCheckpoints(context.Background()), s.unserve(), s.owned.Close(), s.servers.close())
	s.feed.close()
	if err != nil {
		return fmt.Errorf("session %s: %w", s.ID(), err)
	}
	return nil
}
