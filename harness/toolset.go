package harness

import (
	"errors"
	"fmt"
	"slices"

	"github.com/ptc-dev/ptc/presets"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/skills"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/web"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/toolbox"
)

// ToolsetConfig is what building a preset's tools needs. It is filled by
// the caller and not changed afterwards.
type ToolsetConfig struct {
	Preset    *presets.Preset
	Workspace string
	// Sandbox is the mode; "" means the preset's.
	Sandbox string
	// Host runs the sandbox tools; nil builds an idle one (enough to list
	// the tools' specs, as `ptc tools` and `ptc sdk` do).
	Host *sandbox.Host
	// Extra tools join the preset's (MCP servers and other sources); a
	// name clash with a preset tool is an error.
	Extra []tools.Tool
	// Network lets host programs run by the sandbox reach the network.
	Network bool
	// Skills are the skills of the workspace and home (Home.Skills); nil
	// or empty leaves the skill tool out.
	Skills *skills.Catalog
	// Sessions are the home's sessions (session_search, session_read);
	// nil builds those tools detached.
	Sessions *session.Catalog
	// Web is the web tools' configuration; WebFetch adds web_fetch
	// whatever the preset says (--web-fetch).
	Web      web.Config
	WebFetch bool
	// scope is the session's plan mode, goal and children; nil (outside
	// a session) builds those tools detached.
	scope *scope
}

// sandboxSet builds the toolset's one toolbox.Sandbox on first use, so a
// preset without sandbox tools never makes a host.
type sandboxSet struct {
	cfg ToolsetConfig
	sb  *toolbox.Sandbox
}

func (s *sandboxSet) get() (*toolbox.Sandbox, error) {
	if s.sb == nil {
		host := s.cfg.Host
		if host == nil {
			host = sandbox.NewHost(sandbox.Config{})
		}
		mode, err := sandbox.ParseMode(s.cfg.Sandbox)
		if err != nil {
			return nil, err
		}
		s.sb = toolbox.NewSandbox(host, toolbox.SandboxConfig{Workspace: s.cfg.Workspace, Mode: mode,
			Network: s.cfg.Network || s.cfg.Preset.Network, HostPrograms: s.cfg.Preset.HostPrograms,
			Jobs: s.cfg.scope.jobs, Terminals: s.cfg.scope.terms})
	}
	return s.sb, nil
}

// deps are what the toolbox's constructors draw on for one toolset: the
// sandbox, and the session's plan mode, goal and children.
func (sc *scope) deps(sb *sandboxSet) toolbox.Deps {
	d := toolbox.Deps{Sandbox: sb.get, Plan: sc.plan, Goals: sc.goals,
		ExitPlan: toolbox.ExitPlanOptions{NoUser: func() { sc.stop.Store(true) }, Approve: sc.approve}}
	if sc.children != nil { // a nil *children must stay a nil Agents
		d.Agents = sc.children
	}
	return d
}

// presetTools are the tool names a preset gets: its list, then the
// terminal tools it does not list itself when it has terminals: true,
// then web_fetch when the preset or the run turns it on.
func presetTools(p *presets.Preset, webFetch bool) []string {
	names := slices.Clone(p.Tools)
	if p.Terminals {
		for _, n := range toolbox.TerminalNames {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	if (p.WebFetch || webFetch) && !slices.Contains(names, toolbox.WebFetchName) {
		names = append(names, toolbox.WebFetchName)
	}
	return names
}

// KnownToolNames lists the tool names a preset may use, sorted; presets
// are validated against it.
func KnownToolNames() []string { return toolbox.PresetNames() }

// Toolset resolves the preset's tool names (plus cfg.Extra) into a
// registry with the preset's presentation.
func Toolset(cfg ToolsetConfig) (*tools.Registry, error) {
	if cfg.Preset == nil {
		return nil, errors.New("no preset given to build the toolset from")
	}
	if cfg.Sandbox == "" {
		cfg.Sandbox = cfg.Preset.Sandbox
	}
	if cfg.scope == nil {
		cfg.scope = detachedScope()
	}
	deps := cfg.scope.deps(&sandboxSet{cfg: cfg})
	deps.Skills, deps.Sessions, deps.Web = cfg.Skills, cfg.Sessions, cfg.Web
	built := make([]tools.Tool, 0, len(cfg.Preset.Tools)+len(cfg.Extra))
	for _, name := range presetTools(cfg.Preset, cfg.WebFetch) {
		e, ok := toolbox.Lookup(name)
		if !ok || e.Hidden {
			return nil, fmt.Errorf("preset %s lists unknown tool %q", cfg.Preset.ID, name)
		}
		if e.Absent != nil && e.Absent(deps) {
			continue
		}
		t, err := toolbox.Build(name, deps)
		if err != nil {
			return nil, fmt.Errorf("preset %s: %w", cfg.Preset.ID, err)
		}
		built = append(built, t)
	}
	built = append(built, cfg.Extra...)
	reg, err := tools.NewRegistry(cfg.Preset.Presentation, built...)
	if err != nil {
		return nil, fmt.Errorf("preset %s: %w", cfg.Preset.ID, err)
	}
	return reg, nil
}
