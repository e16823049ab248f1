package acp

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/mcp"
	"github.com/ptc-dev/ptc/runtime/session"
)

// open creates a session in cwd (resume "") or opens stored session
// resume, with the client's MCP servers, and registers it. A session
// already open here is refused: the client closes it first.
func (a *Agent) open(resume, cwd string, servers []sdk.McpServer) (*conv, error) {
	if resume != "" {
		a.mu.Lock()
		_, open := a.convs[resume]
		a.mu.Unlock()
		if open {
			return nil, sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("session %s is already open on this connection", resume)})
		}
	}
	extra, err := mcpServers(servers)
	if err != nil {
		return nil, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	opts := a.cfg.Options
	opts.Resume = resume
	workspace := ""
	if resume == "" {
		if !filepath.IsAbs(cwd) {
			return nil, sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("cwd must be an absolute path, not %q", cwd)})
		}
		if workspace, err = harness.ResolveWorkspace(cwd, nil); err != nil {
			return nil, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
		}
		opts.Settings.Workspace = workspace
	}
	c := newConv(workspace, a.logf)
	// The outbox sends only once the session is live, so after c.id is set.
	c.out = newOutbox(func(u sdk.SessionUpdate) error {
		return a.peer().SessionUpdate(a.ctx, sdk.SessionNotification{SessionId: sdk.SessionId(c.id), Update: u})
	})
	opts.Answerer = asker{conv: c, client: a}
	opts.Observer = c.observe
	opts.MCP = &harness.MCPOptions{Configs: a.cfg.MCPConfigs, Servers: extra,
		Notify: func(s string) { a.logf("session %s: mcp: %s", c.id, termsafe.Line(s)) }, Version: a.cfg.Version}
	sess, err := harness.Open(a.ctx, a.cfg.Home, opts)
	if err != nil {
		c.out.close()
		if errors.Is(err, session.ErrNotFound) {
			return nil, sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("no session %q in this ptc home", resume)})
		}
		return nil, err
	}
	c.sess, c.id = sess, sess.ID()
	c.tr.workspace = sess.Settings().Workspace
	if resume != "" && cwd != "" && filepath.Clean(cwd) != c.tr.workspace {
		a.logf("session %s: the client's cwd %s is not the session's workspace %s; the session keeps its own", c.id, termsafe.Line(cwd), c.tr.workspace)
	}
	notices, err := sess.StartMCP(a.ctx)
	if err != nil {
		c.out.close()
		return nil, errors.Join(err, sess.Close())
	}
	for _, n := range append(append(sess.Warnings(), sess.Notices()...), notices...) {
		a.logf("session %s: %s", c.id, termsafe.Line(n))
	}
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return nil, errors.Join(errors.New("the connection is closing"), c.close())
	}
	a.convs[c.id] = c
	a.mu.Unlock()
	a.logf("session %s: open in %s", c.id, c.tr.workspace)
	return c, nil
}

// mcpServers are the servers a client passes, as ptc's: they start like
// --mcp-config ones (the user's own, chosen in the editor's settings),
// checked as a configuration file is. A server over ACP itself is not
// supported.
func mcpServers(in []sdk.McpServer) ([]mcp.Server, error) {
	if len(in) == 0 {
		return nil, nil
	}
	defs := map[string]mcp.Server{}
	for _, s := range in {
		var d mcp.Server
		var name string
		switch {
		case s.Stdio != nil:
			env := map[string]string{}
			for _, v := range s.Stdio.Env {
				env[v.Name] = v.Value
			}
			name, d = s.Stdio.Name, mcp.Server{Type: "stdio", Command: s.Stdio.Command, Args: s.Stdio.Args, Env: env}
		case s.Http != nil:
			name, d = s.Http.Name, mcp.Server{Type: "http", URL: s.Http.Url, Headers: headers(s.Http.Headers)}
		case s.Sse != nil:
			name, d = s.Sse.Name, mcp.Server{Type: "sse", URL: s.Sse.Url, Headers: headers(s.Sse.Headers)}
		default:
			return nil, errors.New("mcpServers: a server must be stdio, http or sse")
		}
		if _, dup := defs[name]; dup {
			return nil, fmt.Errorf("mcpServers: two servers are named %q", name)
		}
		defs[name] = d
	}
	doc, err := json.Marshal(map[string]any{"mcpServers": defs})
	if err != nil {
		return nil, err
	}
	return mcp.ParseFile(doc, "mcpServers", mcp.SourceFlag)
}

func headers(hs []sdk.HttpHeader) map[string]string {
	m := map[string]string{}
	for _, h := range hs {
		m[h.Name] = h.Value
	}
	return m
}
