package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// DefaultConnectTimeout bounds starting a server and listing its tools.
const DefaultConnectTimeout = 30 * time.Second

// Options configure a Manager. The zero value works: no log files, the
// process environment, the default backoff and timeouts.
type Options struct {
	// LogDir receives one log file per server (<name>.log): a stdio
	// server's stderr and ptc's notes on connections. "" discards them.
	LogDir string
	// Getenv expands ${VAR} in the configuration; default os.Getenv.
	Getenv func(string) string
	// Workspace is the working directory of stdio servers that set none.
	Workspace string
	// Version is ptc's version, sent in the MCP handshake.
	Version string
	// Backoff paces reconnection; the zero value is DefaultBackoff.
	Backoff Backoff
	// ConnectTimeout bounds one connection attempt; 0 is
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// Notify receives notices meant for the user (a server stopped, came
	// back, gave up); nil drops them. It may be called from any goroutine.
	Notify func(string)
	// Confine runs the confined servers (Server.Confined: a project's
	// stdio servers); without it they do not start — never unconfined.
	Confine Confiner
}

func (o *Options) connectTimeout() time.Duration {
	if o.ConnectTimeout > 0 {
		return o.ConnectTimeout
	}
	return DefaultConnectTimeout
}

func (o *Options) backoff() Backoff {
	if o.Backoff.Attempts > 0 {
		return o.Backoff
	}
	return DefaultBackoff
}

func (o *Options) version() string {
	if o.Version == "" {
		return "dev"
	}
	return o.Version
}

func (o *Options) notify(s string) {
	if o.Notify != nil {
		o.Notify(s)
	}
}

// Manager runs the configured servers of one process and presents their
// tools. The tool set changes only in Refresh, which the session calls at
// a step boundary: a tools/list_changed notification or a reconnection
// with a different list marks it stale, and Refresh re-lists and rebuilds.
type Manager struct {
	opts    Options
	servers []*server // sorted by name

	mu    sync.Mutex
	tools []*Tool
	stale bool
}

// Start connects to every server at once and waits until each is up or
// its first attempt failed (it then keeps retrying in the background).
// The errors of failed servers come back as notices; a Manager with no
// server working is still valid and has no tools.
func Start(ctx context.Context, servers []Server, opts Options) (*Manager, []string) {
	if opts.Getenv == nil {
		opts.Getenv = getenv
	}
	m := &Manager{opts: opts}
	for _, cfg := range servers {
		m.servers = append(m.servers, newServer(cfg, &m.opts, m.markStale))
	}
	errs := make([]error, len(m.servers))
	var wg sync.WaitGroup
	for i, s := range m.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.start(ctx)
		}()
	}
	wg.Wait()
	var notices []string
	for i, err := range errs {
		switch {
		case err == nil:
		case errors.Is(err, errChanged) || errors.Is(err, errNoConfiner):
			notices = append(notices, fmt.Sprintf("MCP server %s was not started: %v", printable(m.servers[i].cfg.Name, 100), err))
		default:
			notices = append(notices, fmt.Sprintf("MCP server %s did not start (%v); retrying in the background. Its log: %s",
				printable(m.servers[i].cfg.Name, 100), err, m.logPath(m.servers[i])))
		}
	}
	m.tools = buildTools(m.servers)
	return m, notices
}

func (m *Manager) logPath(s *server) string {
	if s.log == nil {
		return "(none)"
	}
	return s.log.path
}

func (m *Manager) markStale() {
	m.mu.Lock()
	m.stale = true
	m.mu.Unlock()
}

// Tools returns the current tool set, sorted by name, as ptc tools.
func (m *Manager) Tools() []tools.Tool {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]tools.Tool, len(m.tools))
	for i, t := range m.tools {
		out[i] = t
	}
	return out
}

// Refresh re-lists the servers that announced a change and rebuilds the
// tool set; it reports whether the set (names, descriptions or schemas)
// differs from the one Tools returned before.
func (m *Manager) Refresh(ctx context.Context) bool {
	m.mu.Lock()
	stale := m.stale
	m.stale = false
	m.mu.Unlock()
	if !stale {
		return false
	}
	for _, s := range m.servers {
		s.relist(ctx)
	}
	next := buildTools(m.servers)
	m.mu.Lock()
	defer m.mu.Unlock()
	changed := !sameSpecs(m.tools, next)
	if changed {
		m.tools = next
	}
	return changed
}

func sameSpecs(a, b []*Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i].spec, b[i].spec
		if x.Name != y.Name || x.Description != y.Description || string(x.InputSchema) != string(y.InputSchema) ||
			string(x.OutputSchema) != string(y.OutputSchema) || a[i].srv != b[i].srv || a[i].ask != b[i].ask ||
			a[i].remote.readOnly() != b[i].remote.readOnly() {
			return false
		}
	}
	return true
}

// Status is one server as `ptc tools` shows it.
type Status struct {
	Name      string `json:"name"`
	Source    Source `json:"source"`
	Transport string `json:"transport"`
	State     string `json:"state"`
	Error     string `json:"error,omitempty"`
	Tools     int    `json:"tools"`
	Log       string `json:"log,omitempty"`
	// Confined is a project stdio server run under the sandbox (see
	// Server.Confined): what it may touch differs, so views say it.
	Confined bool `json:"confined,omitempty"`
}

// Servers reports every server's state.
func (m *Manager) Servers() []Status {
	out := make([]Status, len(m.servers))
	for i, s := range m.servers {
		state, list, err := s.snapshot()
		out[i] = Status{Name: s.cfg.Name, Source: s.cfg.Source, Transport: s.cfg.Transport(), State: state, Tools: len(list), Confined: s.cfg.Confined()}
		if s.log != nil {
			out[i].Log = s.log.path
		}
		if err != nil && state != StateUp {
			out[i].Error = err.Error()
		}
	}
	return out
}

// Close stops every server (stdio servers get their stdin closed, then a
// signal) and waits for them.
func (m *Manager) Close() error {
	var errs []error
	for _, s := range m.servers {
		if err := s.close(); err != nil {
			errs = append(errs, fmt.Errorf("closing MCP server %s: %w", s.cfg.Name, err))
		}
	}
	return errors.Join(errs...)
}
