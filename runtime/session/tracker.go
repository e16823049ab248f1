package session

import "sync"

// tracker keeps a session's listing record up to date: it folds every
// event into the summary and rewrites the record at step and turn
// boundaries, so that when the durable append of a boundary returns the
// record already shows it; the first prompt (the title) is written at
// once too, so a listing names a session from its first step. A write is a small file renamed into place
// (tens of microseconds), done only at boundaries, never per chunk.
type tracker struct {
	dir string

	mu      sync.Mutex
	sum     Summary
	started bool
	err     error // of the last write
}

// boundary reports whether an event ends something a listing shows.
func boundary(typ string) bool {
	switch typ {
	case TypeTurnStart, TypeTurnEnd, TypeStepEnd, TypeSettings, TypeEndSeed:
		return true
	}
	return false
}

// start writes the first record.
func (t *tracker) start(s Summary) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := writeMeta(t.dir, s); err != nil {
		return err
	}
	t.sum, t.started = s, true
	return nil
}

func (t *tracker) observe(e Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.started {
		return
	}
	untitled := t.sum.Title == ""
	t.sum.Add(e)
	if boundary(e.Type) || (untitled && t.sum.Title != "") {
		t.err = writeMeta(t.dir, t.sum)
	}
}

// close writes the final record, marked closed.
func (t *tracker) close() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.started {
		return nil
	}
	t.started = false
	t.sum.Closed = true
	t.err = writeMeta(t.dir, t.sum)
	return t.err
}
