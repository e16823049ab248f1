package sandbox

import (
	"sync"

	"github.com/ptc-dev/ptc/sandbox/netns"
)

// sessionNets are the network namespaces of the sessions whose host
// programs ran without the network (package netns): one per session,
// started by its first host program and ended by EndSession, so a
// server one call starts is reachable on 127.0.0.1 from the next call
// of the same session and from nothing else.
type sessionNets struct {
	mu sync.Mutex
	m  map[string]*sessionNet
}

type sessionNet struct {
	ns    *netns.Namespace
	err   error // why the session has none (each program then has its own)
	noted bool  // err was told once
}

// get returns session's namespace, starting it on first use. When none
// can be had it returns nil (the program gets a namespace of its own, as
// bwrap's --unshare-net makes) and, the first time, the note saying why.
func (s *sessionNets) get(session string) (*netns.Namespace, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]*sessionNet{}
	}
	e, ok := s.m[session]
	if !ok {
		e = &sessionNet{}
		e.ns, e.err = netns.Start(netns.Config{})
		s.m[session] = e
	}
	if e.err == nil {
		return e.ns, ""
	}
	if e.noted {
		return nil, ""
	}
	e.noted = true
	return nil, "no loopback network shared between this session's host programs (" + e.err.Error() + "); each program has a network of its own"
}

// end closes session's namespace, if it has one.
func (s *sessionNets) end(session string) {
	s.mu.Lock()
	e := s.m[session]
	delete(s.m, session)
	s.mu.Unlock()
	if e != nil && e.ns != nil {
		_ = e.ns.Close()
	}
}

// EndSession releases what the Host keeps for a session beyond its calls:
// its network namespace. The caller has stopped the session's programs
// (its jobs and terminals) first; a later call of the session starts a
// new namespace.
func (h *Host) EndSession(session string) {
	if h.hx != nil {
		h.hx.nets.end(session)
	}
}
