package session

import "sync"

// tracker keeps a session's listing record up to date: it folds every
// event into the summary (cheap, on the appending goroutine) and writes
// the record from its own goroutine at step and turn boundaries, so the
// log's lock is never held for a file write.
type tracker struct {
	dir string

	mu      sync.Mutex
	sum     Summary
	started bool
	err     error // of the last write

	kick chan struct{}
	done chan struct{}
}

// boundary reports whether an event ends something a listing shows.
func boundary(typ string) bool {
	switch typ {
	case TypeTurnStart, TypeTurnEnd, TypeStepEnd, TypeSettings, TypeEndSeed:
		return true
	}
	return false
}

// start writes the first record and starts the writer.
func (t *tracker) start(s Summary) error {
	if err := writeMeta(t.dir, s); err != nil {
		return err
	}
	kick := make(chan struct{}, 1)
	t.mu.Lock()
	t.sum, t.started = s, true
	t.kick, t.done = kick, make(chan struct{})
	t.mu.Unlock()
	go t.run(kick)
	return nil
}

func (t *tracker) observe(e Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.started {
		return
	}
	t.sum.add(e)
	if boundary(e.Type) {
		select {
		case t.kick <- struct{}{}:
		default: // a write is already due; it will see this event too
		}
	}
}

func (t *tracker) run(kick <-chan struct{}) {
	defer close(t.done)
	for range kick {
		t.write()
	}
}

func (t *tracker) write() {
	t.mu.Lock()
	s := t.sum
	t.mu.Unlock()
	err := writeMeta(t.dir, s)
	t.mu.Lock()
	t.err = err
	t.mu.Unlock()
}

// close stops the writer and writes the final record.
func (t *tracker) close() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	kick := t.kick
	t.kick, t.started = nil, false
	t.mu.Unlock()
	if kick == nil {
		return nil
	}
	close(kick)
	<-t.done
	t.mu.Lock()
	t.sum.Closed = true
	t.mu.Unlock()
	t.write()
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}
