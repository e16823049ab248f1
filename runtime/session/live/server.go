package live

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Source is the live session a Server serves: *harness.Session in ptc.
type Source interface {
	Header() session.Header
	// Events returns every event so far (a snapshot).
	Events() []session.Event
	// Subscribe calls fn with every event appended from now on, in seq
	// order, on the appending goroutine; fn must not block.
	Subscribe(fn func(session.Event)) (stop func())
}

// Ends of a stream.
const (
	EndSnapshot = "snapshot"
	EndTurn     = "turn"
	EndClosed   = "closed"
	EndLagged   = "lagged"
)

// FromCurrentTurn as the from of a follow starts at the turn/start of the
// running turn, or at the next event when no turn is running.
const FromCurrentTurn = -1

// Until values of a follow request.
const (
	UntilTurn    = "turn"
	UntilSession = "session"
)

// request is what a client asks for.
type request struct {
	Op    string `json:"op"`
	From  int64  `json:"from,omitempty"`
	Until string `json:"until,omitempty"`
}

// message is one line the server sends.
type message struct {
	Header  *session.Header `json:"header,omitempty"`
	PID     int             `json:"pid,omitempty"`
	Running bool            `json:"running,omitempty"`
	Event   *session.Event  `json:"event,omitempty"`
	End     string          `json:"end,omitempty"`
}

// queueLen is how many events a follower may fall behind before it is cut
// off as lagged.
const queueLen = 8192

// maxRequest bounds the request line a client may send.
const maxRequest = 4 << 10

// Bounds on clients, so none can hold the owner up: a session's turn
// ends, and its process exits, whatever its clients do.
const (
	// MaxClients is how many clients one session serves at once; more
	// are hung up on at once.
	MaxClients = 64
	// MaxIdleClients is how many of them may be connected without having
	// sent their request yet (each waits at most requestWait).
	MaxIdleClients = 8
	// requestWait bounds the wait for a client's request line.
	requestWait = 5 * time.Second
	// CloseGrace is how long Close lets followers take the events
	// appended before it and the closing line; then it hangs up on
	// every client that is left.
	CloseGrace = time.Second
)

// Server serves one session on a socket until Close.
type Server struct {
	src  Source
	ln   net.Listener
	path string
	dir  *os.File // keeps a long path reachable via /proc/self/fd

	mu      sync.Mutex
	conns   map[net.Conn]bool // value: the client sent its request
	idle    int               // clients that have not sent their request
	closing bool
	closed  chan struct{}
	wg      sync.WaitGroup
}

// Serve listens on SocketPath(dir), replacing a socket left by a killed
// owner (the caller holds the session's owner lock, so no one else serves
// it), and serves src until Close.
func Serve(dir string, src Source) (*Server, error) {
	path := filepath.Join(dir, session.SocketName)
	_ = os.Remove(path)
	addr, d, err := socketAddr(dir)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("unix", addr)
	if err != nil {
		if d != nil {
			d.Close()
		}
		return nil, fmt.Errorf("serve session %s on %s: %w", src.Header().ID, path, err)
	}
	s := &Server{src: src, ln: ln, path: path, dir: d, conns: map[net.Conn]bool{}, closed: make(chan struct{})}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.closing {
			s.mu.Unlock()
			c.Close()
			return
		}
		if len(s.conns) >= MaxClients || s.idle >= MaxIdleClients {
			s.mu.Unlock()
			c.Close() // too many: hang up at once
			continue
		}
		s.conns[c] = false
		s.idle++
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			s.serve(c)
			s.mu.Lock()
			if !s.conns[c] {
				s.idle--
			}
			delete(s.conns, c)
			s.mu.Unlock()
			c.Close()
		}()
	}
}

// Close stops accepting, tells every follower the session closed, and
// removes the socket. It returns within about CloseGrace whatever the
// clients do: a client still connected then (one that sent nothing, or
// does not read) is hung up on.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return nil
	}
	s.closing = true
	close(s.closed)
	for c, asked := range s.conns {
		if !asked {
			c.Close() // it asked for nothing: nothing to finish
		}
	}
	s.mu.Unlock()
	err := s.ln.Close()
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(CloseGrace):
		s.mu.Lock()
		for c := range s.conns {
			c.Close()
		}
		s.mu.Unlock()
		<-done
	}
	_ = os.Remove(s.path)
	if s.dir != nil {
		s.dir.Close()
	}
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

// serve answers one client.
func (s *Server) serve(c net.Conn) {
	_ = c.SetReadDeadline(time.Now().Add(requestWait))
	line, err := bufio.NewReader(io.LimitReader(c, maxRequest)).ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	var req request
	if json.Unmarshal(line, &req) != nil {
		return
	}
	s.mu.Lock()
	s.conns[c] = true
	s.idle--
	s.mu.Unlock()
	w := bufio.NewWriter(c)
	enc := json.NewEncoder(w)
	send := func(m message) bool {
		if err := enc.Encode(m); err != nil {
			return false
		}
		return w.Flush() == nil
	}
	switch req.Op {
	case "show":
		snap := s.src.Events()
		h := s.src.Header()
		if !send(message{Header: &h, PID: os.Getpid(), Running: running(snap)}) {
			return
		}
		for i := range snap {
			if !send(message{Event: &snap[i]}) {
				return
			}
		}
		send(message{End: EndSnapshot})
	case "follow":
		s.follow(c, req, send)
	}
}

// follow streams events from req.From on until the end asked for.
func (s *Server) follow(c net.Conn, req request, send func(message) bool) {
	q := make(chan session.Event, queueLen)
	var lagged atomic.Bool
	stop := s.src.Subscribe(func(e session.Event) {
		select {
		case q <- e:
		default:
			lagged.Store(true)
		}
	})
	defer stop()
	snap := s.src.Events()
	h := s.src.Header()
	if !send(message{Header: &h, PID: os.Getpid(), Running: running(snap)}) {
		return
	}
	end := &ender{until: req.Until}
	end.start(snap)
	next := req.From
	if next < 0 {
		next = currentTurnStart(snap)
	}
	for i := next; i < int64(len(snap)); i++ {
		if !send(message{Event: &snap[i]}) {
			return
		}
		if end.done(snap[i]) {
			send(message{End: EndTurn})
			return
		}
	}
	next = max(next, int64(len(snap)))
	gone := clientGone(c)
	for {
		select {
		case e := <-q:
			if e.Seq < next {
				continue
			}
			if e.Seq > next || lagged.Load() {
				send(message{End: EndLagged})
				return
			}
			next++
			if !send(message{Event: &e}) {
				return
			}
			if end.done(e) {
				send(message{End: EndTurn})
				return
			}
		case <-s.closed:
			// Drain what was appended before the close.
			for {
				select {
				case e := <-q:
					if e.Seq == next {
						next++
						if !send(message{Event: &e}) {
							return
						}
					}
				default:
					send(message{End: EndClosed})
					return
				}
			}
		case <-gone:
			return
		}
	}
}

// clientGone is closed when the client hangs up (it sends nothing after
// its request).
func clientGone(c net.Conn) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, c)
		close(ch)
	}()
	return ch
}

// ender decides when a follow of "until turn" is over: after the turn/end
// of the turn running when it attached, or of the next turn if none was.
type ender struct {
	until string
	turn  int // the turn to wait for; 0 until one is known
}

func (e *ender) start(snap []session.Event) {
	if e.until != UntilTurn {
		return
	}
	if t, open := openTurn(snap); open {
		e.turn = t
	}
}

func (e *ender) done(ev session.Event) bool {
	if e.until != UntilTurn {
		return false
	}
	switch ev.Type {
	case session.TypeTurnStart:
		if e.turn == 0 {
			var d session.TurnStart
			if json.Unmarshal(ev.Data, &d) == nil {
				e.turn = d.Turn
			}
		}
	case session.TypeTurnEnd:
		var d session.TurnEnd
		if json.Unmarshal(ev.Data, &d) == nil && e.turn != 0 && d.Turn == e.turn {
			return true
		}
	}
	return false
}

// openTurn is the last turn of events if it has not ended.
func openTurn(events []session.Event) (int, bool) {
	for i := len(events) - 1; i >= 0; i-- {
		switch events[i].Type {
		case session.TypeTurnEnd:
			return 0, false
		case session.TypeTurnStart:
			var d session.TurnStart
			if json.Unmarshal(events[i].Data, &d) == nil {
				return d.Turn, true
			}
			return 0, false
		}
	}
	return 0, false
}

// currentTurnStart is the index of the open turn's turn/start, or
// len(events) when no turn is open.
func currentTurnStart(events []session.Event) int64 {
	for i := len(events) - 1; i >= 0; i-- {
		switch events[i].Type {
		case session.TypeTurnEnd:
			return int64(len(events))
		case session.TypeTurnStart:
			return int64(i)
		}
	}
	return int64(len(events))
}

func running(events []session.Event) bool {
	_, open := openTurn(events)
	return open
}
