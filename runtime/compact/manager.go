package compact

import (
	"context"
	"fmt"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
)

// Log is what the manager needs of the session's single writer: the
// events so far and an append that assigns seq and time (durable: on
// stable storage before it returns). The agent passes its own appender so
// that live views see these events like the loop's.
type Log interface {
	Events() []session.Event
	Append(ctx context.Context, eventType string, data any, durable bool) (session.Event, error)
}

// Manager keeps one session's requests under the model's context window:
// it owns the meter, prunes old tool results and compacts. Every change
// it makes is an event in the log, so requests stay a pure function of
// the log. It is used by one turn at a time (the agent's loop, or a
// manual compaction between turns).
type Manager struct {
	given    Config // as passed to New, before defaults
	cfg      Config
	provider llm.Provider
	log      Log
	meter    Meter
	newID    func() string
	builder  *prompt.Builder
}

// New returns a manager for the session behind log. cfg is completed with
// WithDefaults; provider answers the summary side requests (the session's
// own model, so that its prefix cache is reused); newID names compactions
// and summary messages; builder rebuilds requests from the log (the
// caller's own, so both keep one decoding of it; nil: a new one).
func New(cfg Config, provider llm.Provider, log Log, newID func() string, builder *prompt.Builder) *Manager {
	if builder == nil {
		builder = &prompt.Builder{}
	}
	return &Manager{given: cfg, cfg: cfg.WithDefaults(), provider: provider, log: log, newID: newID, builder: builder}
}

// Config is the configuration in force (defaults filled in).
func (m *Manager) Config() Config { return m.cfg }

// Meter is the manager's meter; the agent reports every answered request
// to it (Observe).
func (m *Manager) Meter() *Meter { return &m.meter }

// Fitted is what Fit made of a request.
type Fitted struct {
	Request llm.Request
	Reading Reading
	// Pruned is how many tool results were pruned for it.
	Pruned int
	// Compaction is set when a compaction ran (it may have failed).
	Compaction *Result
	// Refusal is set when the request still does not fit the window: it
	// must not be sent, and the text says why.
	Refusal string
}

// Fit is called with the request about to be sent (rebuilt from the log).
// When automatic compaction is on and the reading passes the threshold,
// it first prunes old tool results, oldest first, until the reading is
// under the threshold; if that is not enough it compacts. refused is the
// provider's context-overflow failure when it has just refused this very
// request as too long (nil otherwise): the provider's word then beats the
// meter's — the request is taken to be as long as the provider counted
// (at least the window), and a window the provider states that is smaller
// than the configured one becomes the session's window — before the same
// steps run. The returned request is rebuilt from the log after any
// change.
func (m *Manager) Fit(ctx context.Context, turn, step int, req llm.Request, refused *llm.Error) (Fitted, error) {
	f := Fitted{Request: req, Reading: m.meter.Read(req)}
	if !m.cfg.automatic() {
		return f, nil
	}
	overflow := refused != nil
	if overflow {
		if w := refused.ContextWindow; w > 0 && w < m.cfg.Window {
			c := m.given
			c.Window, c.SummaryMaxTokens = w, min(m.given.SummaryMaxTokens, w/4)
			m.cfg = c.WithDefaults()
		}
		m.meter.Overflowed(req, max(refused.RequestTokens, m.cfg.Window+1))
		f.Reading = m.meter.Read(req)
	}
	threshold := m.cfg.ThresholdTokens()
	if f.Reading.Tokens <= threshold {
		return f, nil
	}
	n, err := m.prune(ctx, f.Reading.Tokens-threshold)
	if err != nil {
		return f, err
	}
	f.Pruned = n
	if n > 0 {
		if err := m.remeasure(&f); err != nil {
			return f, err
		}
	}
	if f.Reading.Tokens > threshold {
		trigger := session.TriggerAuto
		if overflow {
			trigger = session.TriggerOverflow
		}
		res, err := m.compact(ctx, trigger, turn, step, f.Reading)
		if err != nil {
			return f, err
		}
		f.Compaction = &res
		if err := m.remeasure(&f); err != nil {
			return f, err
		}
	}
	if f.Reading.Tokens > m.cfg.Window {
		f.Refusal = fmt.Sprintf("the request is about %d tokens but the model's context window is %d tokens, "+
			"even after pruning old tool results and compacting", f.Reading.Tokens, m.cfg.Window)
		if c := f.Compaction; c != nil && c.Failure != "" {
			f.Refusal += " (compaction failed: " + c.Failure + ")"
		} else if c != nil && c.Skipped != "" {
			f.Refusal += " (" + c.Skipped + ")"
		}
	}
	return f, nil
}

// Remeasure rebuilds the request from the log and reads it again, for a
// caller that appended to the surface after Fit (a runtime-context
// snapshot a summary replaced).
func (m *Manager) Remeasure(f *Fitted) error { return m.remeasure(f) }

func (m *Manager) remeasure(f *Fitted) error {
	req, err := m.builder.Build(m.log.Events())
	if err != nil {
		return err
	}
	f.Request, f.Reading = req, m.meter.Read(req)
	return nil
}

// prune appends the tool/pruned events of planPrune for a saving of need
// tokens and returns how many it appended.
func (m *Manager) prune(ctx context.Context, need int) (int, error) {
	items, err := m.builder.Surface(m.log.Events())
	if err != nil {
		return 0, err
	}
	plan, _ := planPrune(items, m.cfg, need)
	for _, p := range plan {
		if _, err := m.log.Append(ctx, session.TypeToolPruned, p, false); err != nil {
			return 0, err
		}
	}
	return len(plan), nil
}

// InputTooLarge returns why text cannot enter the session (empty when it
// can): a single input larger than the whole window could never be sent,
// and once in the log it would make every later request overflow.
func (m *Manager) InputTooLarge(text string) string {
	if m.cfg.Window <= 0 {
		return ""
	}
	n := Tokens(text)
	if n <= m.cfg.Window {
		return ""
	}
	return fmt.Sprintf("the input is about %d tokens (%d characters), larger than the model's context window of %d tokens; "+
		"shorten it, or save it to a file in the workspace and ask for the parts that matter", n, Chars(text), m.cfg.Window)
}

// Compact summarises the session now, whatever the meter says (ptc
// session compact, /compact). It works when the context is already over
// the threshold or the window: a span too large for one side request is
// summarised in several passes. A failure is reported in the Result; the
// error is for a log that cannot be written or read.
func (m *Manager) Compact(ctx context.Context) (Result, error) {
	before := Reading{}
	if req, err := m.builder.Build(m.log.Events()); err == nil {
		before = m.meter.Read(req)
	}
	return m.compact(ctx, session.TriggerManual, 0, 0, before)
}
