package harness

import (
	"context"
	"path/filepath"

	"github.com/ptc-dev/ptc/runtime/mcp"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// MCPOptions say where the MCP servers of a run come from and who
// approves the project's.
type MCPOptions struct {
	// Workspace holds the project's .mcp.json; its servers start only
	// once the user approved them (Answerer, or `ptc mcp approve`).
	Workspace string
	// Configs are --mcp-config files; each must exist.
	Configs []string
	// Servers are given directly (ptc sdk --mcp); they start like flag
	// servers.
	Servers []mcp.Server
	// NoConfigFiles skips the user and project files (ptc sdk --mcp).
	NoConfigFiles bool
	// Answerer approves project servers; nil skips unapproved ones.
	Answerer tools.Answerer
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
	admitted, notices, err := mcp.Admit(ctx, servers, o.Workspace, mcp.OpenTrust(h.dir), o.Answerer)
	if err != nil {
		return nil, nil, err
	}
	if len(admitted) == 0 {
		return nil, notices, nil
	}
	m, more := mcp.Start(ctx, admitted, mcp.Options{LogDir: h.MCPLogDir(), Workspace: o.Workspace, Version: o.Version, Notify: o.Notify})
	return m, append(notices, more...), nil
}
