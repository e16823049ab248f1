package harness

import (
	"errors"
	"fmt"
	"sort"

	"github.com/ptc-dev/ptc/presets"
	"github.com/ptc-dev/ptc/ptc"
	"github.com/ptc-dev/ptc/runtime/goal"
	"github.com/ptc-dev/ptc/runtime/plan"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/builtin"
	"github.com/ptc-dev/ptc/sandbox"
	sandboxtools "github.com/ptc-dev/ptc/sandbox/tools"
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
	// Approval is the policy escalation requests of sandbox tools obey;
	// it is the same policy the session's runner applies.
	Approval tools.Policy
	// Extra tools join the preset's (MCP servers and other sources); a
	// name clash with a preset tool is an error.
	Extra []tools.Tool
	// Network lets host programs run by the sandbox reach the network.
	Network bool
	// scope is the session's plan mode, goal and children; nil (outside
	// a session) builds those tools detached.
	scope *scope
}

// toolCtor builds one tool of the toolset. Sandbox tools come from the
// one sandbox tool set of the build (sb), so that read and write share
// their record of what the model has read.
type toolCtor func(cfg ToolsetConfig, sb *sandboxSet) (tools.Tool, error)

// sandboxSet builds the sandbox tools once per toolset, on first use.
type sandboxSet struct {
	cfg   ToolsetConfig
	tools map[string]tools.Tool
}

func (s *sandboxSet) get(name string) (tools.Tool, error) {
	if s.tools == nil {
		host := s.cfg.Host
		if host == nil {
			host = sandbox.NewHost(sandbox.Config{})
		}
		mode, err := sandbox.ParseMode(s.cfg.Sandbox)
		if err != nil {
			return nil, err
		}
		c := sandboxtools.Config{Workspace: s.cfg.Workspace, Mode: mode, Approval: s.cfg.Approval,
			Network: s.cfg.Network || s.cfg.Preset.Network, HostPrograms: s.cfg.Preset.HostPrograms}
		s.tools = map[string]tools.Tool{}
		for _, t := range append(sandboxtools.All(host, c), sandboxtools.Minimal(host, c)...) {
			s.tools[t.Spec().Name] = t
		}
	}
	t, ok := s.tools[name]
	if !ok {
		return nil, fmt.Errorf("the sandbox has no tool named %s", name)
	}
	return t, nil
}

func sandboxed(name string) toolCtor {
	return func(_ ToolsetConfig, sb *sandboxSet) (tools.Tool, error) { return sb.get(name) }
}

func fixed(t func() tools.Tool) toolCtor {
	return func(ToolsetConfig, *sandboxSet) (tools.Tool, error) { return t(), nil }
}

// scoped builds a tool of the session's own state (see scope).
func scoped(t func(*scope) tools.Tool) toolCtor {
	return func(cfg ToolsetConfig, _ *sandboxSet) (tools.Tool, error) { return t(cfg.scope), nil }
}

// goalTool is goal tool i of goal.Tools.
func goalTool(i int) toolCtor {
	return scoped(func(sc *scope) tools.Tool { return goal.Tools(sc.goals)[i] })
}

func agentTool(name string) toolCtor {
	return scoped(func(sc *scope) tools.Tool { return agentTools(sc.children)[name] })
}

// toolCtors maps every tool name a preset may list to its constructor.
var toolCtors = map[string]toolCtor{
	builtin.TodoWriteName:       fixed(builtin.TodoWrite),
	builtin.AskUserQuestionName: fixed(builtin.AskUserQuestion),

	"read":               sandboxed("read"),
	"write":              sandboxed("write"),
	"edit":               sandboxed("edit"),
	"glob":               sandboxed("glob"),
	"grep":               sandboxed("grep"),
	"bash":               sandboxed("bash"),
	"shell":              sandboxed("shell"),
	"str_replace_editor": sandboxed("str_replace_editor"),
	tools.RunCodeName:    fixed(func() tools.Tool { return ptc.NewTool(ptc.Config{}) }),
}

// The session's own tools join in init: the subagent tool opens sessions,
// which validate presets against toolCtors.
func init() {
	for name, ctor := range map[string]toolCtor{
		plan.ExitName: scoped(func(sc *scope) tools.Tool {
			return plan.Exit(sc.plan, plan.ExitOptions{NoUser: func() { sc.stop.Store(true) }, Approve: sc.approve})
		}),
		goal.CreateName: goalTool(0),
		goal.GetName:    goalTool(1),
		goal.UpdateName: goalTool(2),
		SubagentName:    scoped(func(sc *scope) tools.Tool { return subagentTool(sc.children) }),
		AgentOutputName: agentTool(AgentOutputName),
		AgentListName:   agentTool(AgentListName),
		AgentStopName:   agentTool(AgentStopName),
	} {
		toolCtors[name] = ctor
	}
}

// KnownToolNames lists the tool names a preset may use, sorted; presets
// are validated against it.
func KnownToolNames() []string {
	names := make([]string, 0, len(toolCtors))
	for n := range toolCtors {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

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
	sb := &sandboxSet{cfg: cfg}
	built := make([]tools.Tool, 0, len(cfg.Preset.Tools)+len(cfg.Extra))
	for _, name := range cfg.Preset.Tools {
		ctor, ok := toolCtors[name]
		if !ok {
			return nil, fmt.Errorf("preset %s lists unknown tool %q", cfg.Preset.ID, name)
		}
		t, err := ctor(cfg, sb)
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
