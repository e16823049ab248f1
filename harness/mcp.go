package harness

import (
	"context"
	"errors"
	"path/filepath"
	"sync"

	"github.com/ptc-dev/ptc/runtime/mcp"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// MCPOptions say where the MCP servers of a run come from and who
// approves the project's.
type MCPOptions struct {
	// Workspace holds the project's .mcp.json; its servers start only
	// once the user approved them (Approvals, or `ptc mcp approve`).
	Workspace string
	// Configs are --mcp-config files; each must exist.
	Configs []string
	// Servers are given directly (ptc sdk --mcp); they start like flag
	// servers.
	Servers []mcp.Server
	// NoConfigFiles skips the user and project files (ptc sdk --mcp).
	NoConfigFiles bool
	// Approvals puts an unapproved project server to the user; nil skips
	// such servers (Session.StartMCP uses the session's, logging to its
	// Sink). Sink logs the decision.
	Approvals *tools.Approvals
	Sink      tools.Sink
	// Notify receives notices while the servers run (a server stopped,
	// came back, gave up).
	Notify  func(string)
	Version string
}

// MCPLogDir is where the servers' log files go: a stdio server's stderr
// never reaches the terminal.
func (h *Home) MCPLogDir() string { return filepath.Join(h.dir, "logs", "mcp") }

// StartMCP loads the MCP configuration of a run ($PTC_HOME/mcp.json, the
// workspace's .mcp.json, the --mcp-config files), admits the project
// servers the user approved, and starts them. It returns a nil Manager
// when no server is to run. The notices say which servers were skipped or
// did not start; the caller shows them and closes the Manager.
func (h *Home) StartMCP(ctx context.Context, o MCPOptions) (*mcp.Manager, []string, error) {
	files := mcp.Files{Flags: o.Configs}
	if !o.NoConfigFiles {
		files.Home, files.Workspace = h.dir, o.Workspace
	}
	servers, err := mcp.Load(files)
	if err != nil {
		return nil, nil, err
	}
	servers = append(servers, o.Servers...)
	admitted, notices, err := mcp.Admit(ctx, servers, o.Workspace, mcp.OpenTrust(h.dir), &tools.Env{Approvals: o.Approvals, Sink: o.Sink, Workspace: o.Workspace})
	if err != nil {
		return nil, nil, err
	}
	if len(admitted) == 0 {
		return nil, notices, nil
	}
	m, more := mcp.Start(ctx, admitted, mcp.Options{LogDir: h.MCPLogDir(), Workspace: o.Workspace, Version: o.Version, Notify: o.Notify, Confine: newMCPConfiner()})
	return m, append(notices, more...), nil
}

// StartMCP starts the session's MCP servers (Options.MCP): those of the
// workspace's .mcp.json once approved, the home's and the --mcp-config
// files'. Their tools join at the next step boundary. The notices say
// which servers were skipped or did not start; the caller shows them.
func (s *Session) StartMCP(ctx context.Context) ([]string, error) {
	if s.servers == nil {
		return nil, errors.New("the session was opened without MCP options")
	}
	o := *s.opts.MCP
	o.Workspace = s.Settings().Workspace
	if o.Approvals == nil {
		o.Approvals, o.Sink = s.Approvals(), s.Sink()
	}
	m, notices, err := s.home.StartMCP(ctx, o)
	if err != nil {
		return nil, err
	}
	if m != nil {
		s.servers.attach(m)
	}
	return notices, nil
}

// MCPServers is the state of the session's MCP servers (none before
// StartMCP, or when none is configured), for a front end's /mcp view.
func (s *Session) MCPServers() []mcp.Status {
	if s.servers == nil {
		return nil
	}
	if m := s.servers.manager(); m != nil {
		return m.Servers()
	}
	return nil
}

// MCPServers is the current session's (Session.MCPServers).
func (f *Front) MCPServers() []mcp.Status { return f.cur().MCPServers() }

// mcpSource is the ToolSource of a session's MCP servers. The servers
// start once the session is open (its workspace holds .mcp.json, also on
// resume), so the source is attached then and reports a change at the
// first step boundary.
type mcpSource struct {
	mu      sync.Mutex
	m       *mcp.Manager
	pending bool
}

func (s *mcpSource) attach(m *mcp.Manager) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m, s.pending = m, true
}

func (s *mcpSource) manager() *mcp.Manager {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m
}

func (s *mcpSource) Tools() []tools.Tool {
	if m := s.manager(); m != nil {
		return m.Tools()
	}
	return nil
}

func (s *mcpSource) Refresh(ctx context.Context) bool {
	s.mu.Lock()
	m, pending := s.m, s.pending
	s.pending = false
	s.mu.Unlock()
	if m == nil {
		return false
	}
	return m.Refresh(ctx) || pending
}

// close stops the servers, if any started (nil-safe).
func (s *mcpSource) close() error {
	if s == nil {
		return nil
	}
	if m := s.manager(); m != nil {
		return m.Close()
	}
	return nil
}
