package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// MaxNameLength is the longest tool name ptc gives an MCP tool: the limit
// model APIs put on function names.
const MaxNameLength = 64

// namePrefix starts every MCP tool name, so that no server can shadow a
// built-in tool.
const namePrefix = "mcp__"

// Tool is one MCP server tool as a ptc tool: it goes through the one
// pipeline like any other (input validated against the server's schema,
// approval, timeout, output validated against the server's output
// schema), and its calls go to the server's live session.
type Tool struct {
	srv    *server
	remote remote
	spec   tools.Spec
	ask    bool
}

// Spec is the tool's spec under its ptc name.
func (t *Tool) Spec() tools.Spec { return t.spec }

// Server is the configured name of the tool's server; Remote is the
// server's own name for the tool.
func (t *Tool) Server() string { return t.srv.cfg.Name }

// Remote is the server's own name for the tool.
func (t *Tool) Remote() string { return t.remote.Name }

// ConcurrencySafe follows the server's readOnlyHint.
func (t *Tool) ConcurrencySafe(json.RawMessage) bool { return t.remote.readOnly() }

// Writes is true unless the server marks the tool read-only: in plan
// mode (a read-only session) only read-only MCP tools may run.
func (t *Tool) Writes(json.RawMessage) bool { return !t.remote.readOnly() }

// RequiresApproval is the server's (or the tool's) approval setting.
func (t *Tool) RequiresApproval(json.RawMessage) bool { return t.ask }

// Execute calls the tool on its server.
func (t *Tool) Execute(ctx context.Context, call tools.Call) (any, error) {
	return t.srv.call(ctx, t.remote.Name, call.Args)
}

// Render shows the value to the model.
func (t *Tool) Render(value any) string { return render(value) }

// newTool builds the ptc tool of a listed remote tool.
func newTool(srv *server, r remote, name string) *Tool {
	desc := r.Description
	if desc == "" {
		desc = r.Title
	}
	desc = clip.String(desc, maxDescription)
	in := r.InputSchema
	if len(in) == 0 || len(in) > maxSchemaBytes || tools.CheckSchema(in) != nil {
		in = json.RawMessage(`{"type":"object"}`)
	}
	out := r.OutputSchema
	if len(out) > maxSchemaBytes || len(out) > 0 && tools.CheckSchema(out) != nil {
		out = nil // an output schema that cannot be checked is dropped: the result is any JSON
	}
	ask := srv.cfg.Approval == ApprovalAsk
	if a, ok := srv.cfg.ToolApproval[r.Name]; ok {
		ask = a == ApprovalAsk
	}
	return &Tool{srv: srv, remote: r, ask: ask, spec: tools.Spec{
		Name: name, Description: desc, InputSchema: in, OutputSchema: out, Timeout: srv.cfg.CallTimeout(),
	}}
}

// toolNames gives every (server, tool) pair its ptc name:
// mcp__<server>__<tool> with characters outside [A-Za-z0-9_-] replaced by
// "_" (so the name is valid on every model API, and a JS identifier
// unless it has a "-", in which case a program writes tools["…"]). A name
// longer than MaxNameLength is cut and ends in a hash of the pair; names
// that would collide all get their hash. The result depends only on the
// set of pairs, not their order.
func toolNames(pairs [][2]string) map[[2]string]string {
	base := map[[2]string]string{}
	count := map[string]int{}
	for _, p := range pairs {
		n := namePrefix + cleanName(p[0]) + "__" + cleanName(p[1])
		base[p] = n
		count[n]++
	}
	out := make(map[[2]string]string, len(pairs))
	for p, n := range base {
		if count[n] > 1 || len(n) > MaxNameLength {
			sum := sha256.Sum256([]byte(p[0] + "\x00" + p[1]))
			h := "_" + hex.EncodeToString(sum[:6])
			n = n[:min(len(n), MaxNameLength-len(h))] + h
		}
		out[p] = n
	}
	return out
}

func cleanName(s string) string {
	if s == "" {
		return "_"
	}
	return strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return r
		}
		return '_'
	}, s)
}

// buildTools turns the servers' listings into ptc tools, sorted by name.
func buildTools(servers []*server) []*Tool {
	type entry struct {
		srv *server
		r   remote
	}
	var entries []entry
	var pairs [][2]string
	for _, s := range servers {
		_, list, _ := s.snapshot()
		seen := map[string]bool{}
		for _, r := range list {
			if r.Name == "" || seen[r.Name] {
				continue // a nameless or repeated tool cannot be called reliably
			}
			seen[r.Name] = true
			entries = append(entries, entry{s, r})
			pairs = append(pairs, [2]string{s.cfg.Name, r.Name})
		}
	}
	names := toolNames(pairs)
	out := make([]*Tool, len(entries))
	for i, e := range entries {
		out[i] = newTool(e.srv, e.r, names[[2]string{e.srv.cfg.Name, e.r.Name}])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].spec.Name < out[j].spec.Name })
	return out
}

// ServerOf reports the MCP server a tool comes from, if it is one.
func ServerOf(t tools.Tool) (server string, ok bool) {
	if mt, ok := t.(*Tool); ok {
		return mt.Server(), true
	}
	return "", false
}
