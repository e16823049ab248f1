package main

import (
	"errors"
	"fmt"
	"sort"

	"github.com/ptc-dev/ptc/presets"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/builtin"
)

// toolsetConfig is what building a preset's tools needs. It is filled by
// the command that builds the toolset and not changed afterwards.
type toolsetConfig struct {
	preset    *presets.Preset
	workspace string
	sandbox   string
	// skipUnavailable builds what exists and reports the rest (for
	// `ptc tools`); otherwise a missing tool is an error.
	skipUnavailable bool
}

// toolCtor builds one tool of the toolset.
type toolCtor func(cfg toolsetConfig) (tools.Tool, error)

// errToolUnavailable marks a tool whose package has not been wired into
// the CLI yet.
type errToolUnavailable struct{ name string }

func (e errToolUnavailable) Error() string {
	return fmt.Sprintf("tool %s is not available in this build yet", e.name)
}

func unavailable(name string) toolCtor {
	return func(toolsetConfig) (tools.Tool, error) { return nil, errToolUnavailable{name} }
}

func fixed(t func() tools.Tool) toolCtor {
	return func(toolsetConfig) (tools.Tool, error) { return t(), nil }
}

// toolCtors maps every tool name a preset may list to its constructor.
var toolCtors = map[string]toolCtor{
	builtin.TodoWriteName:       fixed(builtin.TodoWrite),
	builtin.AskUserQuestionName: fixed(builtin.AskUserQuestion),

	// TODO(lead): sandbox tools (package sandbox/tools: ByName(host, cfg,
	// name)) need a *sandbox.Host built from cfg.workspace/cfg.sandbox.
	"read":               unavailable("read"),
	"write":              unavailable("write"),
	"edit":               unavailable("edit"),
	"glob":               unavailable("glob"),
	"grep":               unavailable("grep"),
	"bash":               unavailable("bash"),
	"shell":              unavailable("shell"),
	"str_replace_editor": unavailable("str_replace_editor"),
	// TODO(lead): run_code is ptc.NewTool(ptc.Config{}).
	tools.RunCodeName: unavailable(tools.RunCodeName),
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
	reg, _, err := buildToolsetReport(cfg)
	return reg, err
}

// buildToolsetReport is buildToolset that also returns the names skipped
// because they are not available (only with skipUnavailable).
func buildToolsetReport(cfg toolsetConfig) (*tools.Registry, []string, error) {
	if cfg.preset == nil {
		return nil, nil, errors.New("no preset given to build the toolset from")
	}
	var built []tools.Tool
	var skipped []string
	for _, name := range cfg.preset.Tools {
		ctor, ok := toolCtors[name]
		if !ok {
			return nil, nil, fmt.Errorf("preset %s lists unknown tool %q", cfg.preset.ID, name)
		}
		t, err := ctor(cfg)
		var un errToolUnavailable
		if errors.As(err, &un) && cfg.skipUnavailable {
			skipped = append(skipped, name)
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("preset %s: %w", cfg.preset.ID, err)
		}
		built = append(built, t)
	}
	reg, err := tools.NewRegistry(cfg.preset.Presentation, built...)
	if err != nil {
		return nil, nil, fmt.Errorf("preset %s: %w", cfg.preset.ID, err)
	}
	return reg, skipped, nil
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
