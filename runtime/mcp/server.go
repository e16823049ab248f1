package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// Limits that keep a misbehaving server from flooding the tool set.
const (
	maxToolsPerServer = 500
	maxListPages      = 100
	maxSchemaBytes    = 256 << 10
	maxDescription    = 4000
)

// Backoff paces the reconnection of a server whose connection broke.
type Backoff struct {
	Initial, Max time.Duration
	Attempts     int
}

// DefaultBackoff doubles from 0.5 s to 30 s, ten attempts.
var DefaultBackoff = Backoff{Initial: 500 * time.Millisecond, Max: 30 * time.Second, Attempts: 10}

func (b Backoff) delay(attempt int) time.Duration {
	d := b.Initial
	for i := 1; i < attempt && d < b.Max; i++ {
		d *= 2
	}
	return min(d, b.Max)
}

// Server states.
const (
	StateStarting     = "starting"
	StateUp           = "up"
	StateReconnecting = "reconnecting"
	StateFailed       = "failed"
	StateClosed       = "closed"
)

// remote is one tool as the server lists it, schemas as raw JSON.
type remote struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  *struct {
		ReadOnlyHint bool `json:"readOnlyHint"`
	} `json:"annotations,omitempty"`
}

func (r remote) readOnly() bool { return r.Annotations != nil && r.Annotations.ReadOnlyHint }

// server is the live client of one configured server: it connects,
// lists tools, calls them, and reconnects with backoff when the
// connection breaks (a crashed or restarted server).
type server struct {
	def      Server // as loaded (and admitted)
	cfg      Server // expanded
	opts     *Options
	onChange func() // the tool list may differ from the last one seen

	mu      sync.Mutex
	state   string
	lastErr error
	ready   chan struct{} // closed when a start or reconnect settles
	cs      *sdk.ClientSession
	gen     int // connection generation; a stale watcher does nothing
	tools   []remote
	dirty   bool // tools/list_changed arrived since the last listing
	stop    context.CancelFunc
	stopCtx context.Context
	log     *serverLog
}

func newServer(def Server, opts *Options, onChange func()) *server {
	ctx, cancel := context.WithCancel(context.Background())
	cfg := def.expanded(opts.Getenv, opts.Workspace)
	s := &server{def: def, cfg: cfg, opts: opts, onChange: onChange, state: StateStarting,
		ready: make(chan struct{}), stop: cancel, stopCtx: ctx}
	if opts.LogDir != "" {
		s.log = &serverLog{path: filepath.Join(opts.LogDir, logName(cfg.Name))}
	}
	return s
}

// start makes the first connection; on failure the server keeps
// reconnecting in the background, and start reports the error.
func (s *server) start(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.opts.connectTimeout())
	defer cancel()
	if err := s.connect(ctx); err != nil {
		if errors.Is(err, errChanged) || errors.Is(err, errNoConfiner) {
			s.settle(StateFailed, err)
			return err
		}
		s.settle(StateReconnecting, err)
		go s.reconnect()
		return err
	}
	return nil
}

// connect opens a session, lists the tools and starts watching for the
// connection's end.
func (s *server) connect(ctx context.Context) error {
	if err := s.def.stillAdmitted(); err != nil {
		return err
	}
	t, err := s.transport()
	if err != nil {
		return err
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "ptc", Version: s.opts.version()}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			s.mu.Lock()
			s.dirty = true
			s.mu.Unlock()
			s.onChange()
		},
		Capabilities: &sdk.ClientCapabilities{},
	})
	cs, err := client.Connect(ctx, capturing{t}, nil)
	if err != nil {
		return fmt.Errorf("cannot connect: %w", err)
	}
	list, err := listTools(ctx, cs)
	if err != nil {
		_ = cs.Close()
		return err
	}
	s.mu.Lock()
	if s.state == StateClosed {
		s.mu.Unlock()
		_ = cs.Close()
		return errors.New("the server was closed")
	}
	changed := !sameTools(s.tools, list)
	s.gen++
	s.cs, s.tools, s.dirty, s.lastErr = cs, list, false, nil
	gen := s.gen
	s.mu.Unlock()
	s.settle(StateUp, nil)
	go s.watch(cs, gen)
	if changed {
		s.onChange()
	}
	return nil
}

// settle sets the state and wakes the calls waiting for it.
func (s *server) settle(state string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == StateClosed {
		return
	}
	s.state = state
	if err != nil {
		s.lastErr = err
	}
	switch state {
	case StateUp, StateFailed:
		select {
		case <-s.ready:
		default:
			close(s.ready)
		}
	case StateReconnecting:
		select {
		case <-s.ready:
			s.ready = make(chan struct{})
		default:
		}
	}
}

// watch waits for the session to end; an end ptc did not ask for starts
// reconnecting.
func (s *server) watch(cs *sdk.ClientSession, gen int) {
	err := cs.Wait()
	s.mu.Lock()
	stale := s.gen != gen || s.state == StateClosed
	if !stale {
		s.cs = nil
	}
	s.mu.Unlock()
	if stale {
		return
	}
	if err == nil {
		err = errors.New("the connection closed")
	}
	s.logf("connection lost: %v", err)
	s.settle(StateReconnecting, fmt.Errorf("the server stopped: %w", err))
	s.opts.notify(fmt.Sprintf("MCP server %s stopped (%v); reconnecting.", printable(s.cfg.Name, 100), err))
	s.reconnect()
}

// reconnect tries to connect again with backoff; after the last attempt
// the server is failed (its calls fail at once).
func (s *server) reconnect() {
	b := s.opts.backoff()
	for attempt := 1; attempt <= b.Attempts; attempt++ {
		select {
		case <-s.stopCtx.Done():
			return
		case <-time.After(b.delay(attempt)):
		}
		ctx, cancel := context.WithTimeout(s.stopCtx, s.opts.connectTimeout())
		err := s.connect(ctx)
		cancel()
		if err == nil {
			s.logf("reconnected after %d attempt(s)", attempt)
			s.opts.notify(fmt.Sprintf("MCP server %s is back.", printable(s.cfg.Name, 100)))
			return
		}
		s.logf("reconnect attempt %d failed: %v", attempt, err)
		s.mu.Lock()
		s.lastErr = err
		s.mu.Unlock()
		if errors.Is(err, errChanged) {
			s.settle(StateFailed, err)
			s.opts.notify(fmt.Sprintf("MCP server %s was not restarted: %v", printable(s.cfg.Name, 100), err))
			return
		}
	}
	s.settle(StateFailed, fmt.Errorf("gave up after %d reconnect attempts: %w", b.Attempts, s.err()))
	s.opts.notify(fmt.Sprintf("MCP server %s could not be restarted: %v", printable(s.cfg.Name, 100), s.err()))
}

func (s *server) err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastErr
}

// session returns the live session, waiting while the server starts or
// reconnects, until ctx ends.
func (s *server) session(ctx context.Context) (*sdk.ClientSession, error) {
	for {
		s.mu.Lock()
		state, cs, ready, err := s.state, s.cs, s.ready, s.lastErr
		s.mu.Unlock()
		switch {
		case state == StateUp && cs != nil:
			return cs, nil
		case state == StateFailed || state == StateClosed:
			if err == nil {
				err = errors.New(state)
			}
			return nil, err
		}
		select {
		case <-ready:
		case <-ctx.Done():
			return nil, fmt.Errorf("it is restarting: %v", err)
		}
	}
}

// listTools reads every page of tools/list, schemas raw. A server that
// keeps paginating is cut at maxListPages, and at maxToolsPerServer tools.
func listTools(ctx context.Context, cs *sdk.ClientSession) ([]remote, error) {
	var out []remote
	cursor := ""
	for page := 0; page < maxListPages && len(out) < maxToolsPerServer; page++ {
		slot := &rawSlot{}
		res, err := cs.ListTools(withSlot(ctx, slot), &sdk.ListToolsParams{Cursor: cursor})
		if err != nil {
			return nil, fmt.Errorf("tools/list failed: %w", err)
		}
		var p struct {
			Tools []remote `json:"tools"`
		}
		if raw := slot.last(); raw == nil || json.Unmarshal(raw, &p) != nil || len(p.Tools) != len(res.Tools) {
			p.Tools = decodedTools(res.Tools) // served from the SDK's cache, or odd: take its decoding
		}
		out = append(out, p.Tools...)
		if res.NextCursor == "" || res.NextCursor == cursor {
			break
		}
		cursor = res.NextCursor
	}
	if len(out) > maxToolsPerServer {
		out = out[:maxToolsPerServer]
	}
	return out, nil
}

// decodedTools converts the SDK's decoded tools (member order lost).
func decodedTools(ts []*sdk.Tool) []remote {
	var out []remote
	for _, t := range ts {
		if t == nil {
			continue
		}
		in, _ := json.Marshal(t.InputSchema)
		r := remote{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: in}
		if t.OutputSchema != nil {
			r.OutputSchema, _ = json.Marshal(t.OutputSchema)
		}
		if t.Annotations != nil {
			r.Annotations = &struct {
				ReadOnlyHint bool `json:"readOnlyHint"`
			}{t.Annotations.ReadOnlyHint}
		}
		out = append(out, r)
	}
	return out
}

func sameTools(a, b []remote) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// relist reads the tool list again when a list_changed notification
// arrived; it reports whether the list differs.
func (s *server) relist(ctx context.Context) bool {
	s.mu.Lock()
	dirty, cs := s.dirty, s.cs
	s.mu.Unlock()
	if !dirty || cs == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.connectTimeout())
	defer cancel()
	list, err := listTools(ctx, cs)
	if err != nil {
		s.logf("re-listing tools after tools/list_changed failed: %v", err)
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dirty = false
	if sameTools(s.tools, list) {
		return false
	}
	s.tools = list
	return true
}

func (s *server) snapshot() (string, []remote, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state, append([]remote(nil), s.tools...), s.lastErr
}

// call runs one tool call and returns its value (see resultValue). An
// HTTP server that answers "session not found" restarted and never saw
// the call: it is sent once more on a new session.
func (s *server) call(ctx context.Context, name string, args json.RawMessage) (any, error) {
	for attempt := 1; ; attempt++ {
		cs, err := s.session(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, tools.Errorf(tools.CodeToolFailed, "MCP server %s is not available: %v", s.cfg.Name, err)
		}
		slot := &rawSlot{}
		res, err := cs.CallTool(withSlot(ctx, slot), &sdk.CallToolParams{Name: name, Arguments: args})
		if errors.Is(err, sdk.ErrSessionMissing) && attempt == 1 && ctx.Err() == nil {
			s.logf("call %s: the server lost the session (%v); reconnecting", name, err)
			s.lost(cs)
			continue
		}
		return s.outcome(ctx, cs, name, res, slot, err)
	}
}

// outcome turns what CallTool returned into the call's value or failure.
func (s *server) outcome(ctx context.Context, cs *sdk.ClientSession, name string, res *sdk.CallToolResult, slot *rawSlot, err error) (any, error) {
	var wire *jsonrpc.Error
	switch {
	case err == nil:
		raw := slot.last()
		if raw == nil {
			raw, _ = json.Marshal(res)
		}
		return resultValue(raw)
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.As(err, &wire):
		return nil, tools.Errorf(tools.CodeToolFailed, "MCP server %s refused the call: %s", s.cfg.Name, printable(wire.Message, 2000))
	}
	s.logf("call %s failed: %v", name, err)
	s.lost(cs)
	return nil, tools.Errorf(tools.CodeToolOutcomeUnknown,
		"MCP server %s stopped answering during the call (%v); ptc is restarting it. The call may or may not have taken effect: check before retrying anything with side effects.",
		s.cfg.Name, err)
}

// lost takes a session whose call broke out of use at once, so the next
// call waits for the reconnection instead of failing on it too; closing it
// makes the watcher (which owns reconnecting) see its end.
func (s *server) lost(cs *sdk.ClientSession) {
	s.mu.Lock()
	current := s.cs == cs && s.state == StateUp
	if current {
		s.cs = nil
	}
	s.mu.Unlock()
	if current {
		s.settle(StateReconnecting, errors.New("the connection broke during a call"))
		_ = cs.Close()
	}
}

// close ends the session (a stdio server gets its stdin closed, then is
// terminated) and stops reconnecting.
func (s *server) close() error {
	s.stop()
	s.mu.Lock()
	cs := s.cs
	s.state, s.cs = StateClosed, nil
	select {
	case <-s.ready:
	default:
		close(s.ready)
	}
	s.mu.Unlock()
	var err error
	if cs != nil {
		err = cs.Close()
	}
	if s.log != nil {
		s.log.close()
	}
	return err
}

// transport builds the SDK transport of the server's type. A stdio
// server's stderr goes to its log file, never to the terminal.
func (s *server) transport() (sdk.Transport, error) {
	switch s.cfg.Transport() {
	case "stdio":
		if s.cfg.Confined() {
			if s.opts.Confine == nil {
				return nil, errNoConfiner
			}
			return &confinedTransport{s: s}, nil
		}
		cmd := exec.Command(s.cfg.Command, s.cfg.Args...)
		cmd.Dir = s.cfg.Cwd
		cmd.Env = os.Environ()
		for k, v := range s.cfg.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		cmd.Stderr = s.logWriter()
		return &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil
	case "sse":
		return &sdk.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: s.httpClient()}, nil
	default:
		return &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: s.httpClient(), MaxRetries: -1}, nil
	}
}

func (s *server) httpClient() *http.Client {
	return &http.Client{Transport: headerTransport{base: http.DefaultTransport, headers: s.cfg.Headers}}
}

// headerTransport adds the configured headers to every request.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	return h.base.RoundTrip(r)
}

// logWriter is the server's log file (stderr and ptc's notes about it),
// or a discard writer when there is no log directory.
func (s *server) logWriter() io.Writer {
	if s.log == nil {
		return io.Discard
	}
	return s.log
}

func (s *server) logf(format string, args ...any) {
	fmt.Fprintf(s.logWriter(), "[ptc %s] %s\n", time.Now().UTC().Format(time.RFC3339), fmt.Sprintf(format, args...))
}
