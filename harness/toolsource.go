package harness

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// ToolSource supplies tools that can change while a session runs (the
// MCP servers, see runtime/mcp.Manager): they join the preset's tools,
// and at every step boundary Refresh says whether they changed. Then the
// registry and the system text (under ptc, the SDK section) are rebuilt
// with the new ones, keeping the preset's tool instances (what read
// recorded for edit) and the session's allow-for-the-session grants, and
// the next request is logged with a request/header of reason change.
type ToolSource interface {
	Tools() []tools.Tool
	Refresh(ctx context.Context) bool
}

// extraTools are the fixed extra tools plus the source's current ones.
func (in composeInput) extraTools() []tools.Tool {
	if in.source == nil {
		return in.extra
	}
	return append(append([]tools.Tool(nil), in.extra...), in.source.Tools()...)
}

// refresher is the agent's Config.Refresh for a composition built from
// reg, runner and the prompt variables vars; nil without a source.
func (in composeInput) refresher(reg *tools.Registry, runner *tools.Runner, vars map[string]string) func(context.Context) (string, agent.ToolRunner, bool) {
	if in.source == nil {
		return nil
	}
	fromSource := map[string]bool{}
	for _, t := range in.source.Tools() {
		fromSource[t.Spec().Name] = true
	}
	var base []tools.Tool // the preset's tools and the fixed extras, as built
	for _, n := range reg.Names() {
		if t, ok := reg.Lookup(n); ok && !fromSource[n] {
			base = append(base, t)
		}
	}
	return func(ctx context.Context) (string, agent.ToolRunner, bool) {
		if !in.source.Refresh(ctx) {
			return "", nil, false
		}
		next, err := tools.NewRegistry(reg.Presentation(), append(append([]tools.Tool(nil), base...), in.source.Tools()...)...)
		if err != nil {
			return "", nil, false // the set in force stays: a clash must not break the session
		}
		sections, err := in.sections(next)
		if err != nil {
			return "", nil, false
		}
		system, err := prompt.Render(sections, vars)
		if err != nil {
			return "", nil, false
		}
		runner = runner.WithRegistry(next)
		return system, agent.FromRunner(runner), true
	}
}
