package harness

import (
	"errors"
	"os"

	"github.com/ptc-dev/ptc/runtime/session"
)

// forget removes a session this process created and nothing was said in
// (its pre-flight failed, or an interactive session ended before its
// first prompt): listing it would show an empty session that cannot be
// told from a real one. Only the home's own catalog forgets; a session in
// another store (a fleet's) stays.
func (h *Home) forget(id string) error {
	if h.sessions != nil {
		return nil
	}
	err := h.Catalog().Remove(id)
	if errors.Is(err, session.ErrNotFound) {
		err = nil
	}
	return errors.Join(err, os.RemoveAll(h.SpillDir(id)), os.RemoveAll(h.CheckpointDir(id)))
}

// Untouched reports whether the session was created by this Open and has
// had no turn: nothing in it a user could want back.
func (s *Session) Untouched() bool {
	if s.resumed || s.opts.Parent != nil {
		return false
	}
	for _, e := range s.log.Events() {
		if e.Type == session.TypeTurnStart {
			return false
		}
	}
	return true
}

// Discard closes the session and, when it is Untouched, removes it from
// the home; otherwise it is Close.
func (s *Session) Discard() error {
	untouched := s.Untouched()
	err := s.Close()
	if untouched {
		err = errors.Join(err, s.home.forget(s.ID()))
	}
	return err
}
