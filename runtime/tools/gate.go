package tools

import (
	"context"
	"sync"
)

// Gate admits tool calls in submission order under the concurrency rule of
// DESIGN.md §4: concurrency-safe calls share up to Limit slots; any other
// call runs alone (it waits until everything running has finished, and
// nothing after it starts until it is done).
//
// Admission is strictly FIFO: a later call never starts before an earlier
// one, so starts happen in the order calls were submitted. The step
// scheduler and run_code's nested calls share this one mechanism.
type Gate struct {
	limit int

	mu      sync.Mutex
	running int  // admitted calls not yet released
	excl    bool // an exclusive call is running
	queue   []*waiter
}

type waiter struct {
	safe  bool
	ready chan struct{}
	gone  bool
}

// NewGate returns a Gate with the given pool size for concurrency-safe
// calls (values below 1 mean 1).
func NewGate(limit int) *Gate {
	if limit < 1 {
		limit = 1
	}
	return &Gate{limit: limit}
}

// Acquire blocks until the call may start, honouring FIFO order, and
// returns the function that releases its slot (call it exactly once). If
// ctx ends first, Acquire returns ctx.Err() and the call never starts.
func (g *Gate) Acquire(ctx context.Context, safe bool) (release func(), err error) {
	w := &waiter{safe: safe, ready: make(chan struct{})}
	g.mu.Lock()
	g.queue = append(g.queue, w)
	g.admitLocked()
	g.mu.Unlock()

	select {
	case <-w.ready:
		return g.releaser(w), nil
	case <-ctx.Done():
		g.mu.Lock()
		select {
		case <-w.ready: // admitted while we were giving up: give the slot back
			g.mu.Unlock()
			g.releaser(w)()
			return nil, ctx.Err()
		default:
		}
		w.gone = true
		g.admitLocked()
		g.mu.Unlock()
		return nil, ctx.Err()
	}
}

// TryAcquire admits the call only if it may start at once without
// overtaking a queued call; otherwise it returns ok=false and leaves no
// trace in the queue. It lets a caller that would otherwise hand the call
// to a goroutine blocked in Acquire skip that hop when the Gate is free.
func (g *Gate) TryAcquire(safe bool) (release func(), ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queue) > 0 || g.excl || safe && g.running >= g.limit || !safe && g.running > 0 {
		return nil, false
	}
	g.running++
	g.excl = !safe
	return g.releaser(&waiter{safe: safe}), true
}

func (g *Gate) releaser(w *waiter) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			g.running--
			if !w.safe {
				g.excl = false
			}
			g.admitLocked()
			g.mu.Unlock()
		})
	}
}

// admitLocked starts queued calls from the head while the rule allows.
func (g *Gate) admitLocked() {
	for len(g.queue) > 0 {
		w := g.queue[0]
		if w.gone {
			g.queue = g.queue[1:]
			continue
		}
		if g.excl {
			return
		}
		if w.safe {
			if g.running >= g.limit {
				return
			}
		} else if g.running > 0 {
			return
		} else {
			g.excl = true
		}
		g.running++
		g.queue = g.queue[1:]
		close(w.ready)
	}
}
