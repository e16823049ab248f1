package harness

import (
	"github.com/ptc-dev/ptc/runtime/session/live"
)

// serve starts the owner socket: any process may show or follow this
// session while it runs (package live). A socket that cannot be made
// (an odd file system) only costs the live view, so it is a notice, not
// a failure. A session without a directory (its log is in JetStream) has
// no socket: its followers subscribe to the store.
func (s *Session) serve() {
	dir := s.owned.Dir()
	if dir == "" {
		return
	}
	srv, err := live.Serve(dir, s)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.notices = append(s.notices, "other terminals cannot follow this session: "+err.Error())
		return
	}
	s.srv = srv
}

// unserve stops the owner socket; followers are told the session closed.
func (s *Session) unserve() error {
	s.mu.Lock()
	srv := s.srv
	s.srv = nil
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	return srv.Close()
}
