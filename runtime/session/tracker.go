package session

import (
	"errors"
	"sync"
)

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
	err     error     // of the last write
	find    findIndex // the search index (findindex.go), flushed with the record
}

// boundary reports whether an event ends something a listing shows.
func boundary(typ string) bool {
	switch typ {
	case TypeTurnStart, TypeTurnEnd, TypeStepEnd, TypeSettings, TypeEndSeed:
		return true
	}
	return false
}

// start writes the first record and the search index of events.
func (t *tracker) start(s Summary, events []Event) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := writeMeta(t.dir, s); err != nil {
		return err
	}
	if err := t.find.rebuild(t.dir, events); err != nil {
		return storeError(s.Header.ID, t.dir, "write the session's search index", err)
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
	t.find.add(e)
	if boundary(e.Type) || e.Type == TypeTitle || (untitled && t.sum.Title != "") {
		t.err = errors.Join(writeMeta(t.dir, t.sum), t.find.flush(t.dir))
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
	t.err = errors.Join(writeMeta(t.dir, t.sum), t.find.flush(t.dir))
	return t.err
}
