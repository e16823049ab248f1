package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
)

// DefaultAddr is where ptc serve listens unless --addr says otherwise:
// loopback only.
const DefaultAddr = "127.0.0.1:4517"

// Config is a server's configuration; New copies it.
type Config struct {
	// Home is the ptc home whose sessions are served.
	Home *harness.Home
	// Token is the bearer token every request must carry (LoadToken).
	Token string
	// Addr is the address served: a server bound to one IP answers to
	// that IP in the Host header besides the loopback names.
	Addr string
	// AllowHosts are further names the Host header may carry (--allow-host).
	AllowHosts []string
	// Heartbeat is how often an idle event stream gets a comment line;
	// default 15 s.
	Heartbeat time.Duration
	// Options is the template of every session the server opens (retry
	// policy, toolset, environment); the server sets Resume, Settings,
	// Override, Answerer and Observer itself.
	Options harness.Options
	// Logf reports what happens off any request (a turn that could not
	// be written); default: nothing.
	Logf func(format string, args ...any)
}

// Server serves a home's sessions over HTTP (see the package doc). It is
// an http.Handler; Close ends its streams and closes the sessions it
// opened.
type Server struct {
	cfg     Config
	guard   *guard
	handler http.Handler

	ctx    context.Context // of the turns the server runs
	cancel context.CancelFunc
	wg     sync.WaitGroup // the turn runners

	// openMu serialises opening sessions (and reading stores while none
	// is being opened), so a session is never opened twice.
	openMu sync.Mutex
	// staleMu serialises answers to requests left by a stopped process,
	// so the first one resumes the session and a second learns it lost
	// (staleWon: session id + "/" + request id → the answer that won).
	staleMu  sync.Mutex
	staleWon map[string]string

	mu     sync.Mutex
	open   map[string]*served
	hubs   map[string]*hub
	closed bool
}

// New returns a server for cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Home == nil {
		return nil, errors.New("serve: no home")
	}
	if len(cfg.Token) < 32 {
		return nil, errors.New("serve: the token is too short")
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = 15 * time.Second
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		cfg: cfg, guard: newGuard(cfg.Token, cfg.AllowHosts, cfg.Addr), ctx: ctx, cancel: cancel,
		open: map[string]*served{}, hubs: map[string]*hub{}, staleWon: map[string]string{},
	}
	mux := http.NewServeMux()
	for _, rt := range s.routes() {
		mux.HandleFunc(rt.method+" "+rt.pattern, rt.handle)
	}
	web, err := webHandler()
	if err != nil {
		return nil, err
	}
	mux.Handle("GET /", web)
	s.handler = s.guard.wrap(mux)
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// HTTPServer returns an http.Server for s at addr with the limits a
// public listener needs (header size and read timeouts; no write
// timeout, which would cut event streams).
func (s *Server) HTTPServer(addr string) *http.Server { return newHTTPServer(addr, s) }

func newHTTPServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr: addr, Handler: h, MaxHeaderBytes: maxHeader,
		ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute,
	}
}

// Close ends every event stream and closes the sessions, cancelling
// their running turns (their records are written, as a Ctrl-C would). A
// session whose turn waits for a person is left as a stopped process
// leaves it instead: its log made durable with the request in it and
// the turn open, so that after a restart the request is pending again
// and its answer resumes the session (answerStale). Once Close has left
// such a session, the process is expected to exit.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	open := s.open
	s.open = map[string]*served{}
	for _, h := range s.hubs {
		h.end("shutdown")
	}
	s.mu.Unlock()
	var errs []error
	left := 0
	for _, sv := range open {
		if sv.waiting() {
			left++
			if err := sv.sess.Sync(context.Background()); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		if err := sv.close(); err != nil {
			errs = append(errs, err)
		}
	}
	if left == 0 {
		s.cancel()
		s.wg.Wait()
	}
	return errors.Join(errs...)
}

func (s *Server) cat() *session.Catalog { return s.cfg.Home.Catalog() }

// served returns the session if this server has it open.
func (s *Server) served(id string) *served {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open[id]
}

// hubFor returns session id's hub, made on first use; nil once the
// server is closed.
func (s *Server) hubFor(id string) *hub {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	h := s.hubs[id]
	if h == nil {
		h = newHub()
		s.hubs[id] = h
	}
	return h
}

// resolve turns a path's session id (or a unique prefix) into an id,
// answering 404 itself when there is none.
func (s *Server) resolve(w http.ResponseWriter, raw string) (string, bool) {
	id, err := s.cat().Resolve(raw)
	if err != nil {
		if errors.Is(err, session.ErrNotFound) {
			fail(w, http.StatusNotFound, "not_found", fmt.Sprintf("no session %s", quote(raw)))
		} else {
			fail(w, http.StatusBadRequest, "bad_id", err.Error())
		}
		return "", false
	}
	return id, true
}
