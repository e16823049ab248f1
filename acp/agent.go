package acp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
)

// Config is what `ptc acp` serves with.
type Config struct {
	// Home is where sessions are created, loaded and listed.
	Home *harness.Home
	// Options are the template of every session opened: Settings are the
	// command line's (the client's cwd replaces the workspace), Override
	// the settings flags given (they replace a loaded session's recorded
	// ones, as on ptc --resume); Retry and Toolset serve tests. Resume,
	// Answerer, Observer and MCP are set per session.
	Options harness.Options
	// MCPConfigs are --mcp-config files, for every session besides the
	// servers a client passes.
	MCPConfigs []string
	// Version is ptc's, told in initialize.
	Version string
	// Logf logs; never to stdout, which carries only the protocol.
	Logf func(format string, args ...any)
}

// Agent is ptc as an ACP agent: the SDK calls its methods, one
// goroutine per request. It is safe for concurrent use.
type Agent struct {
	cfg Config
	// conn is set once NewAgentSideConnection returns, which is after it
	// starts reading requests: use peer, which waits for ready.
	conn  *sdk.AgentSideConnection
	ready chan struct{}
	// ctx lives as long as the connection: MCP servers and the sessions'
	// work are bound to it, not to the request that started them.
	ctx context.Context

	mu     sync.Mutex
	convs  map[string]*conv
	closed bool // the connection ended: no session opens any more
}

// Serve speaks ACP on in and out until the client closes in or ctx ends,
// then closes every session it opened.
func Serve(ctx context.Context, cfg Config, in io.Reader, out io.Writer) error {
	if cfg.Home == nil {
		return errors.New("acp: no home")
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a := &Agent{cfg: cfg, ctx: ctx, convs: map[string]*conv{}, ready: make(chan struct{})}
	// The SDK's diagnostics go to slog's default logger: its SetLogger
	// races with the reader it has already started (LogHandler is for the
	// caller's slog.SetDefault).
	a.conn = sdk.NewAgentSideConnection(a, out, in)
	close(a.ready)
	select {
	case <-a.conn.Done():
	case <-ctx.Done():
	}
	cancel()
	return a.closeAll()
}

func (a *Agent) closeAll() error {
	a.mu.Lock()
	convs := a.convs
	a.convs, a.closed = map[string]*conv{}, true
	a.mu.Unlock()
	var errs []error
	for _, c := range convs {
		errs = append(errs, c.close())
	}
	return errors.Join(errs...)
}

// peer is the connection to the client.
func (a *Agent) peer() *sdk.AgentSideConnection {
	<-a.ready
	return a.conn
}

// RequestPermission makes the Agent the asker's way to the client.
func (a *Agent) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	return a.peer().RequestPermission(ctx, p)
}

func (a *Agent) logf(format string, args ...any) { a.cfg.Logf(format, args...) }

// conv returns the open session id or the error a client gets for it.
func (a *Agent) conv(id sdk.SessionId) (*conv, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if c, ok := a.convs[string(id)]; ok {
		return c, nil
	}
	return nil, sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("no open session %q: create it with session/new or open it with session/load", id)})
}

// Initialize tells what this agent does: load and resume sessions, list
// them, close them; text, resource links and embedded resources in
// prompts (ptc's input is text, so images and audio are not offered);
// stdio, HTTP and SSE MCP servers.
func (a *Agent) Initialize(_ context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	a.logf("initialize: client %s, protocol version %d", clientName(p), p.ProtocolVersion)
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		AgentInfo:       &sdk.Implementation{Name: "ptc", Title: sdk.Ptr("ptc"), Version: a.cfg.Version},
		AuthMethods:     []sdk.AuthMethod{},
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: sdk.PromptCapabilities{EmbeddedContext: true},
			McpCapabilities:    sdk.McpCapabilities{Http: true, Sse: true},
			SessionCapabilities: sdk.SessionCapabilities{
				List: &sdk.SessionListCapabilities{}, Resume: &sdk.SessionResumeCapabilities{}, Close: &sdk.SessionCloseCapabilities{},
			},
		},
	}, nil
}

func clientName(p sdk.InitializeRequest) string {
	if p.ClientInfo == nil {
		return "(unnamed)"
	}
	return fmt.Sprintf("%q %q", p.ClientInfo.Name, p.ClientInfo.Version)
}

// Authenticate: ptc needs none (model keys come from the environment).
func (a *Agent) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}

// Logout: nothing to forget.
func (a *Agent) Logout(context.Context, sdk.LogoutRequest) (sdk.LogoutResponse, error) {
	return sdk.LogoutResponse{}, nil
}

// NewSession creates a session in the client's cwd with the command
// line's settings and the client's MCP servers.
func (a *Agent) NewSession(_ context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	c, err := a.open("", p.Cwd, p.McpServers)
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	c.live.Store(true)
	return sdk.NewSessionResponse{SessionId: sdk.SessionId(c.id), Modes: c.modes()}, nil
}

// LoadSession opens a stored session, replays it as session/update
// notifications and keeps it open for prompts.
func (a *Agent) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	c, err := a.open(string(p.SessionId), p.Cwd, p.McpServers)
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	if err := c.replay(ctx); err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	c.live.Store(true)
	return sdk.LoadSessionResponse{Modes: c.modes()}, nil
}

// ResumeSession opens a stored session without replaying it.
func (a *Agent) ResumeSession(_ context.Context, p sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	c, err := a.open(string(p.SessionId), p.Cwd, p.McpServers)
	if err != nil {
		return sdk.ResumeSessionResponse{}, err
	}
	c.live.Store(true)
	return sdk.ResumeSessionResponse{Modes: c.modes()}, nil
}

// CloseSession closes an open session (its running turn is cancelled).
func (a *Agent) CloseSession(_ context.Context, p sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	c, err := a.conv(p.SessionId)
	if err != nil {
		return sdk.CloseSessionResponse{}, err
	}
	a.mu.Lock()
	delete(a.convs, c.id)
	a.mu.Unlock()
	if err := c.close(); err != nil {
		a.logf("close session %s: %v", c.id, err)
	}
	return sdk.CloseSessionResponse{}, nil
}

// ListSessions lists the home's sessions, newest first (of cwd when
// given).
func (a *Agent) ListSessions(ctx context.Context, p sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	var opts session.ListOptions
	if p.Cwd != nil {
		opts.Cwd = filepath.Clean(*p.Cwd)
	}
	sums, err := a.cfg.Home.Catalog().List(ctx, opts)
	if err != nil {
		return sdk.ListSessionsResponse{}, err
	}
	out := sdk.ListSessionsResponse{Sessions: make([]sdk.SessionInfo, 0, len(sums))}
	for _, s := range sums {
		out.Sessions = append(out.Sessions, sessionInfo(s))
	}
	return out, nil
}

// SetSessionMode switches plan mode.
func (a *Agent) SetSessionMode(ctx context.Context, p sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	c, err := a.conv(p.SessionId)
	if err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	switch p.ModeId {
	case ModeDefault, ModePlan:
	default:
		return sdk.SetSessionModeResponse{}, sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("no mode %q: the modes are %q and %q", p.ModeId, ModeDefault, ModePlan)})
	}
	if err := c.sess.SetPlanMode(ctx, p.ModeId == ModePlan); err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	return sdk.SetSessionModeResponse{}, nil
}

// SetSessionConfigOption: ptc offers no config options (its settings are
// the command line's).
func (a *Agent) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionSetConfigOption)
}

// Cancel cancels the session's running turn (the SDK also cancels the
// prompt's context); a waiting permission request closes with it.
func (a *Agent) Cancel(_ context.Context, p sdk.CancelNotification) error {
	if c, err := a.conv(p.SessionId); err == nil {
		c.sess.Cancel()
	}
	return nil
}

var (
	_ sdk.Agent       = (*Agent)(nil)
	_ sdk.AgentLoader = (*Agent)(nil)
)

// LogHandler is a slog.Handler writing through logf, for the SDK's
// diagnostics (slog.SetDefault(slog.New(LogHandler(logf)))).
func LogHandler(logf func(string, ...any)) slog.Handler { return logHandler{logf} }

type logHandler struct{ logf func(string, ...any) }

func (h logHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h logHandler) Handle(_ context.Context, r slog.Record) error {
	msg := r.Message
	r.Attrs(func(at slog.Attr) bool {
		msg += " " + at.String()
		return true
	})
	h.logf("acp: %s: %s", r.Level, msg)
	return nil
}
func (h logHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h logHandler) WithGroup(string) slog.Handler      { return h }
