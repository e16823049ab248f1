package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/mcp"
)

// MCPBackend is the part of a Backend that reports the session's MCP
// servers (/mcp). A Backend without it (a remote session) has no /mcp
// view.
type MCPBackend interface {
	// MCPServers is each running server's state, in configuration order.
	MCPServers() []mcp.Status
}

// cmdMCP is /mcp: the session's MCP servers, their state, tool counts
// and whether they run confined. Names, errors and paths come from
// configuration files and servers, so every field is cleaned for the
// terminal.
func (m *Model) cmdMCP(string) tea.Cmd {
	mb, ok := m.be.(MCPBackend)
	if !ok {
		m.tr.notice(toneWarn, "this session does not report its MCP servers")
		return nil
	}
	m.tr.notice(toneInfo, mcpListing(mb.MCPServers()))
	return nil
}

// mcpErrorWidth bounds a failed server's error in the listing (its log
// has the rest).
const mcpErrorWidth = 120

// mcpListing is the /mcp text for servers.
func mcpListing(servers []mcp.Status) string {
	if len(servers) == 0 {
		return "no MCP servers running (configure them in $PTC_HOME/mcp.json, the workspace's .mcp.json or --mcp-config; a project's servers run once approved: ptc mcp approve)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "MCP servers (%d):", len(servers))
	for _, s := range servers {
		runs := "your own program"
		switch {
		case s.Confined:
			runs = "confined (read-only, no network)"
		case s.Transport != "stdio":
			runs = "remote"
		}
		fmt.Fprintf(&b, "\n  %-16s %-8s %-6s %-12s %3d tools  %s", termsafe.Clip(s.Name, 32), termsafe.Line(string(s.Source)),
			termsafe.Line(s.Transport), termsafe.Line(s.State), s.Tools, runs)
		if s.Error != "" {
			b.WriteString("\n      " + termsafe.Clip(s.Error, mcpErrorWidth))
		}
		if s.Log != "" && s.State != mcp.StateUp {
			b.WriteString("\n      log: " + termsafe.Clip(s.Log, mcpErrorWidth))
		}
	}
	return b.String()
}
