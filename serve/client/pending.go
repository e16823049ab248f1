package client

import (
	"context"
	"errors"
	"sync"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/serve"
)

// Watcher puts a served session's pending requests to a local answerer
// (a terminal prompt, the TUI's dialog) and sends its answers to the
// server. When another client answers first, the local question is
// withdrawn (its context cancelled) and told says what won.
type Watcher struct {
	c    *Client
	id   string
	ans  tools.Answerer
	told func(string)
	kick chan struct{}

	mu     sync.Mutex
	asking map[string]context.CancelFunc
}

// Watch starts watching session id's pending requests until ctx ends.
// Feed it the session's events with Observe.
func Watch(ctx context.Context, c *Client, id string, ans tools.Answerer, told func(string)) *Watcher {
	w := &Watcher{c: c, id: id, ans: ans, told: told, kick: make(chan struct{}, 1), asking: map[string]context.CancelFunc{}}
	w.poke()
	go w.loop(ctx)
	return w
}

// Observe looks again at the pending requests after an event that may
// open or close one.
func (w *Watcher) Observe(e session.Event) {
	switch e.Type {
	case session.TypeApprovalAsked, session.TypeApprovalDecided, session.TypeToolCall, session.TypeToolResult,
		session.TypePtcDispatchStart, session.TypePtcDispatch, session.TypeTurnEnd:
		w.poke()
	}
}

func (w *Watcher) poke() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

func (w *Watcher) loop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			w.mu.Lock()
			for _, cancel := range w.asking {
				cancel()
			}
			w.mu.Unlock()
			return
		case <-w.kick:
		}
		rec, err := w.c.Get(ctx, w.id)
		if err != nil {
			continue
		}
		open := map[string]bool{}
		for _, p := range rec.Pending {
			open[p.ID] = true
			w.mu.Lock()
			_, asked := w.asking[p.ID]
			if !asked {
				actx, cancel := context.WithCancel(ctx)
				w.asking[p.ID] = cancel
				go w.ask(actx, p)
			}
			w.mu.Unlock()
		}
		w.mu.Lock()
		for id, cancel := range w.asking {
			if !open[id] {
				cancel() // answered elsewhere, or gone with its turn
				delete(w.asking, id)
			}
		}
		w.mu.Unlock()
	}
}

// ask puts one request to the local answerer and sends the answer.
func (w *Watcher) ask(ctx context.Context, p serve.Pending) {
	q := tools.Question{ID: p.ID, Kind: p.Kind, CallID: p.CallID, Tool: p.Tool, Args: p.Arguments, Text: p.Text, Options: p.Options}
	reply, err := w.ans.Ask(ctx, q)
	ans := reply.Answer
	if err != nil || ctx.Err() != nil {
		return
	}
	switch {
	case p.Kind == tools.KindApproval && ans == tools.AnswerAllowOnce, p.Kind == tools.KindPlan && ans == tools.AnswerApprovePlan:
		err = w.c.Decide(ctx, w.id, p.ID, "once")
	case p.Kind == tools.KindApproval && ans == tools.AnswerAllowSession:
		err = w.c.Decide(ctx, w.id, p.ID, "session")
	case p.Kind == tools.KindApproval, p.Kind == tools.KindPlan && ans == tools.AnswerKeepPlanning:
		err = w.c.Decide(ctx, w.id, p.ID, "deny")
	default:
		err = w.c.Answer(ctx, w.id, p.ID, ans)
	}
	var e *Error
	if errors.As(err, &e) && e.Code == "already_answered" && w.told != nil {
		w.told("another client answered first (" + e.Answer + ")")
	} else if err != nil && w.told != nil {
		w.told("the answer could not be sent: " + err.Error())
	}
	w.poke()
}
