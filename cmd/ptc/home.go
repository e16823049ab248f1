package main

import (
	"errors"
	"fmt"
	"sort"

	"github.com/ptc-dev/ptc/presets"
	"github.com/ptc-dev/ptc/ptc"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/builtin"
	"github.com/ptc-dev/ptc/sandbox"
	sandboxtools "github.com/ptc-dev/ptc/sandbox/tools"
)

// toolsetConfig is what building a preset's tools needs. It is filled by
// the command that builds the toolset and not changed afterwards.
type toolsetConfig struct {
	preset    *presets.Preset
	workspace string
	sandbox   string
	// host runs the sandbox tools; nil builds an idle one (enough to list
	// the tools' specs, as `ptc tools` and `ptc sdk` do).
	host *sandbox.Host
	// approval is the policy escalation requests of sandbox tools obey.
	approval tools.Policy
}

// toolCtor builds one tool of the toolset. Sandbox tools come from the
// one sandbox tool set of the build (sb), so that read and write share
// their record of what the model has read.
type toolCtor func(cfg toolsetConfig, sb *sandboxSet) (tools.Tool, error)

// sandboxSet builds the sandbox tools once per toolset, on first use.
type sandboxSet struct {
	cfg   toolsetConfig
	tools map[string]tools.Tool
}

func (s *sandboxSet) get(name string) (tools.Tool, error) {
	if s.tools == nil {
		host := s.cfg.host
		if host == nil {
			host = sandbox.NewHost(sandbox.Config{})
		}
		mode, err := sandbox.ParseMode(s.cfg.sandbox)
		if err != nil {
			return nil, err
		}
		c := sandboxtools.Config{Workspace: s.cfg.workspace, Mode: mode, Approval: s.cfg.approval}
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
	return func(_ toolsetConfig, sb *sandboxSet) (tools.Tool, error) { return sb.get(name) }
}

func fixed(t func() tools.Tool) toolCtor {
	return func(toolsetConfig, *sandboxSet) (tools.Tool, error) { return t(), nil }
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

// knownToolNames lists the names presets are validated against.
func knownToolNames() []string {
	names := make([]string, 0, len(toolCtors))
	for n := range toolCtors {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// buildToolset resolves the preset's tool names into a registry with the
// preset's presentation.
func buildToolset(cfg toolsetConfig) (*tools.Registry, error) {
	if cfg.preset == nil {
		return nil, errors.New("no preset given to build the toolset from")
	}
	if cfg.sandbox == "" {
		cfg.sandbox = cfg.preset.Sandbox
	}
	sb := &sandboxSet{cfg: cfg}
	built := make([]tools.Tool, 0, len(cfg.preset.Tools))
	for _, name := range cfg.preset.Tools {
		ctor, ok := toolCtors[name]
		if !ok {
			return nil, fmt.Errorf("preset %s lists unknown tool %q", cfg.preset.ID, name)
		}
		t, err := ctor(cfg, sb)
		if err != nil {
			return nil, fmt.Errorf("preset %s: %w", cfg.preset.ID, err)
		}
		built = append(built, t)
	}
	reg, err := tools.NewRegistry(cfg.preset.Presentation, built...)
	if err != nil {
		return nil, fmt.Errorf("preset %s: %w", cfg.preset.ID, err)
	}
	return reg, nil
}

// loadPresets loads the embedded presets and the user's under home
// (flag, else $PTC_HOME or ~/.ptc).
func loadPresets(homeFlag string) (*presets.Set, error) {
	home, err := resolveHome(homeFlag)
	if err != nil {
		return nil, err
	}
	return presets.Load(home, knownToolNames())
}
