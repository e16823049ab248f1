package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptc-dev/ptc/runtime/compact"
	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// Log is the session's single writer as the loop needs it; *session.Log
// implements it. Append buffers; AppendDurable returns once the event and
// everything before it are on stable storage. Both assign seq and time and
// must be safe for concurrent use (tools emit approval events from
// parallel calls). Events returns the whole log, buffered events included.
type Log interface {
	Append(ctx context.Context, eventType string, data any) (session.Event, error)
	AppendDurable(ctx context.Context, eventType string, data any) (session.Event, error)
	Events() []session.Event
	Sync(ctx context.Context) error
}

// Retrier decides whether a failed attempt is tried again and after how
// long; llm.RetryPolicy implements it. attempt counts from 1.
type Retrier interface {
	Next(attempt int, err error) (time.Duration, bool)
}

// Config is the fixed setup of an Agent. Provider and Model are required;
// everything else has a working zero value.
type Config struct {
	Provider llm.Provider
	Model    string
	// System is the rendered system text (see prompt.Render).
	System  string
	Options llm.Options
	// Tools runs the tool calls of a step; nil means the model gets no tools.
	Tools ToolRunner
	// Refresh, when set, is asked at every step boundary whether the tool
	// set changed (an MCP server announced tools/list_changed): it returns
	// the system text and tools to use from this step on, and the next
	// request is logged with a request/header of reason change.
	Refresh func(ctx context.Context) (system string, tools ToolRunner, changed bool)
	// Env is handed to tool bodies on the context; its Sink defaults to
	// the session log.
	Env *tools.Env
	// Context returns the current runtime context; nil sends no snapshots.
	Context func() prompt.Context
	// MaxSteps ends a turn with turn/end{max-steps} once that many steps
	// ran; 0 means no budget.
	MaxSteps int
	// Retry defaults to llm.DefaultRetryPolicy().
	Retry Retrier
	Hooks Hooks
	// Observer sees every event this agent appends, in seq order, for
	// live output (terminal, stream-json). It must not block for long.
	Observer func(session.Event)
	// Sleep waits between attempts; it must return early with ctx's error
	// when ctx ends. Tests inject a recorder.
	Sleep func(ctx context.Context, d time.Duration) error
	// NewID names user messages; defaults to random hex.
	NewID func() string
	// Continues marks an agent that takes over a run from another agent
	// of the same session in this process (a settings change builds a
	// new one): its first request is not the first of a run, so its
	// request/header is logged as change, and only when something the
	// request carries differs. Without it the first request is logged
	// as initial or resume.
	Continues bool
	// Inbox holds the input waiting to enter the log; nil makes a new
	// one. A runtime that replaces its agent (a settings change builds a
	// new one) passes the same Inbox, so input queued meanwhile survives.
	Inbox *Inbox
	// Compaction keeps requests under the model's context window (see
	// runtime/compact): the meter's reading is logged before every
	// request; with Window set and Auto on, old tool results are pruned
	// and the session compacted before a request that would pass the
	// threshold, and a context-overflow failure is recovered from once
	// per step. The zero value only meters.
	Compaction compact.Config
}

// Outcome is how a turn ended. Reason is a session.Reason* value; Cause
// is set for aborted, Failure and Err for error. Text is the last
// assistant text of the turn, Usage the sum over its attempts.
type Outcome struct {
	Turn    int       `json:"turn"`
	Steps   int       `json:"steps"`
	Reason  string    `json:"reason"`
	Cause   string    `json:"cause,omitempty"`
	Failure string    `json:"failure,omitempty"`
	Text    string    `json:"text"`
	Usage   llm.Usage `json:"usage"`
	Err     error     `json:"-"`
}

// Agent runs turns against one session log. It is not safe to run two
// turns at once; Followup and Steer may be called from other goroutines.
type Agent struct {
	cfg   Config
	log   Log
	inbox *Inbox

	mu          sync.Mutex // serialises appends so Observer sees seq order
	lastTurn    int
	sentRequest atomic.Bool    // a request/header was already considered by this process
	builder     prompt.Builder // rebuilds each request from the log, decoding only new events
	context     *compact.Manager
}

// New returns an Agent continuing log: turn numbers continue after the
// last turn/start already in it. A resumed log must be repaired first
// (session.Repair) so that no turn is left open.
func New(cfg Config, log Log) (*Agent, error) {
	if cfg.Provider == nil {
		return nil, errors.New("agent: no model provider configured")
	}
	if cfg.Model == "" {
		return nil, errors.New("agent: no model name configured")
	}
	if cfg.Retry == nil {
		cfg.Retry = llm.DefaultRetryPolicy()
	}
	if cfg.Sleep == nil {
		cfg.Sleep = llm.Sleep
	}
	if cfg.NewID == nil {
		cfg.NewID = randomID
	}
	if cfg.Inbox == nil {
		cfg.Inbox = &Inbox{}
	}
	a := &Agent{cfg: cfg, log: log, inbox: cfg.Inbox}
	last, err := lastTurn(log.Events())
	if err != nil {
		return nil, err
	}
	a.lastTurn = last
	a.sentRequest.Store(cfg.Continues)
	a.context = compact.New(cfg.Compaction, cfg.Provider, contextLog{a}, cfg.NewID, &a.builder)
	if err := a.context.Meter().Restore(log.Events()); err != nil {
		return nil, err
	}
	return a, nil
}

// Requested reports whether this agent has prepared a model request (so
// an agent replacing it continues the run: Config.Continues).
func (a *Agent) Requested() bool { return a.sentRequest.Load() }

// Inbox returns the agent's input queues.
func (a *Agent) Inbox() *Inbox { return a.inbox }

// RunTurn queues input as the next turn and runs turns until the
// next-turn queue is empty, returning the outcome of the last one. A Go
// error means the log could not be written; model and tool failures are
// reported in the Outcome.
func (a *Agent) RunTurn(ctx context.Context, input string) (Outcome, error) {
	a.inbox.Followup(input)
	out, _, err := a.RunQueued(ctx)
	return out, err
}

// RunInput runs in as a turn now, ahead of anything queued, then the
// follow-ups queued meanwhile, returning the last outcome. Its Source
// goes into the turn's user/message, so a turn the runtime starts (a goal
// round) reads as such in the log.
func (a *Agent) RunInput(ctx context.Context, in Input) (Outcome, error) {
	out, err := a.runTurn(ctx, in)
	if err != nil || ctx.Err() != nil {
		return out, err
	}
	if next, ran, err := a.RunQueued(ctx); ran || err != nil {
		return next, err
	}
	return out, nil
}

// RunQueued runs the queued follow-ups, each its own turn, until the
// queue is empty; ran is false when there was none.
func (a *Agent) RunQueued(ctx context.Context) (out Outcome, ran bool, err error) {
	for {
		in, ok := a.inbox.nextTurn()
		if !ok {
			return out, ran, nil
		}
		ran = true
		if out, err = a.runTurn(ctx, in); err != nil {
			return out, ran, err
		}
		if ctx.Err() != nil {
			return out, ran, nil
		}
	}
}

// append writes one event and shows it to the observer. Appends use a
// context that is not cancelled with the turn, so that the record of a
// cancelled turn is still written.
func (a *Agent) append(ctx context.Context, typ string, data any, durable bool) (session.Event, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	write := a.log.Append
	if durable {
		write = a.log.AppendDurable
	}
	ev, err := write(context.WithoutCancel(ctx), typ, data)
	if err != nil {
		return ev, fmt.Errorf("could not record %s in the session log: %w", typ, err)
	}
	if a.cfg.Observer != nil {
		a.cfg.Observer(ev)
	}
	return ev, nil
}

// Emit makes the agent a tools.Sink: events from the tool runtime land in
// the session log like the loop's own.
func (a *Agent) Emit(eventType string, data any) error {
	_, err := a.append(context.Background(), eventType, data, false)
	return err
}

func lastTurn(events []session.Event) (int, error) {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type != session.TypeTurnStart {
			continue
		}
		var ts session.TurnStart
		if err := json.Unmarshal(events[i].Data, &ts); err != nil {
			return 0, fmt.Errorf("turn/start at seq %d is not valid: %w", events[i].Seq, err)
		}
		return ts.Turn, nil
	}
	return 0, nil
}

func randomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
