package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/ptc-dev/ptc/runtime/mcp"
)

// mcpFake is a fakeBackend with MCP servers.
type mcpFake struct {
	*fakeBackend
	servers []mcp.Status
}

func (f *mcpFake) MCPServers() []mcp.Status { return f.servers }

// /mcp lists each server with its source, transport, state, tool count
// and confinement; a failed server's error and log follow, and hostile
// names and errors reach the screen escaped.
func TestSlashMCPListsTheServers(t *testing.T) {
	fake := &mcpFake{fakeBackend: newFake(t), servers: []mcp.Status{
		{Name: "github", Source: mcp.SourceUser, Transport: "http", State: mcp.StateUp, Tools: 12},
		{Name: "lint", Source: mcp.SourceProject, Transport: "stdio", State: mcp.StateUp, Tools: 3, Confined: true},
		{Name: "evil\x1b]0;owned\x07", Source: mcp.SourceFlag, Transport: "stdio", State: mcp.StateFailed,
			Error: "exited: \x1b[2Jcleared", Log: "/home/dev/.ptc/logs/mcp/evil.log"},
	}}
	got := screen(slashMCP(fake))
	if strings.ContainsRune(got, '\x1b') || strings.ContainsRune(got, '\x07') {
		t.Fatalf("a control character reached the screen: %q", got)
	}
	golden(t, "mcp", got)

	fake.servers = nil
	if s := screen(slashMCP(fake)); !strings.Contains(s, "no MCP servers running") {
		t.Fatalf("/mcp with no servers:\n%s", s)
	}
}

// slashMCP is a model of be, 100 columns wide, after /mcp.
func slashMCP(be Backend) *Model {
	m := New(be, Config{Profile: termenv.Ascii, Now: func() time.Time { return clock }})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	m.in.SetValue("/mcp")
	drive(m, tea.KeyMsg{Type: tea.KeyEnter})
	return m
}
