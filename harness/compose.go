package harness

import (
	"fmt"
	"github.com/ptc-dev/ptc/runtime/hooks"
	"runtime"
	"time"

	"github.com/ptc-dev/ptc/presets"
	"github.com/ptc-dev/ptc/ptc"
	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/compact"
	"github.com/ptc-dev/ptc/runtime/llm/backend"
	"github.com/ptc-dev/ptc/runtime/llm/models"
	"github.com/ptc-dev/ptc/runtime/plan"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/settingsfile"
	"github.com/ptc-dev/ptc/runtime/skills"
	"github.com/ptc-dev/ptc/runtime/structured"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/web"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/toolbox"
)

// composition is everything one set of settings turns into: the agent's
// config and the registry behind it. A settings change between turns
// builds a new composition for the same log.
type composition struct {
	cfg agent.Config
	reg *tools.Registry
	// hooks are the settings.json hooks of the session (hooks.go).
	hooks *hooks.Engine
	// model is the table's entry for the model in use, --context-window
	// applied; notices are what choosing it has to tell the user.
	model   models.Model
	notices []string
}

// composeInput is what compose needs besides the settings: the parts that
// stay the same for the life of a session.
type composeInput struct {
	id       string
	preset   *presets.Preset
	settings session.Settings
	host     *sandbox.Host
	spill    string
	getenv   func(string) string
	models   *models.Table
	now      func() time.Time
	extra    []tools.Tool
	source   ToolSource
	buildReg func(ToolsetConfig) (*tools.Registry, error)
	retry    agent.Retrier
	hooks    agent.Hooks
	scope    *scope
	// output, when set, is the schema the final answer must match (its
	// structured_output section joins the prompt).
	output *structured.Schema
	// project is the AGENTS.md section, read once per composition so
	// every request (and a tool-set refresh) carries the same bytes;
	// skills likewise is the skills catalog, found once per composition.
	project prompt.Section
	skills  *skills.Catalog
	// home is the ptc home's directory (its skills); window the model's
	// context window in tokens (the catalog's budget).
	home   string
	window int
}

// compose wires the preset (prompt sections, snapshots, tool set) and the
// settings into the agent's config. The approval policy is parsed once
// here: the runner decides every call (escalations included) through the
// session's Approvals viewed under it.
func compose(in composeInput) (composition, error) {
	s := in.settings
	choice, err := backend.Choose(backend.Spec{Model: s.Model, BaseURL: s.BaseURL, ContextWindow: s.ContextWindow, Getenv: in.getenv, Models: in.models})
	if err != nil {
		return composition{}, err
	}
	provider, model := choice.Provider, choice.Model
	policy, err := tools.ParsePolicy(s.Approval)
	if err != nil {
		return composition{}, err
	}
	build := in.buildReg
	if build == nil {
		build = Toolset
	}
	in.skills = skills.Discover(s.Workspace, in.home)
	webCfg, err := web.LoadConfig(settingsfile.User(in.home), in.getenv)
	if err != nil {
		return composition{}, err
	}
	reg, err := build(ToolsetConfig{Preset: in.preset, Workspace: s.Workspace, Sandbox: s.Sandbox, Host: in.host, Extra: in.extraTools(), Network: s.Network, Skills: in.skills, Sessions: session.NewCatalog(in.home),
		Web: webCfg, WebFetch: s.WebFetch, scope: in.scope})
	if err != nil {
		return composition{}, err
	}
	project, notes := ProjectInstructions(s.Workspace)
	in.project = project
	notes = append(notes, in.skills.Warnings()...)
	in.window = choice.Info.ContextWindow
	sections, err := in.sections(reg)
	if err != nil {
		return composition{}, err
	}
	today := in.now().Format("2006-01-02")
	vars := map[string]string{"cwd": s.Workspace, "workspace": s.Workspace, "model": model, "preset": in.preset.ID, "os": runtime.GOOS, "date": today}
	system, err := prompt.Render(sections, vars)
	if err != nil {
		return composition{}, fmt.Errorf("preset %s: %w", in.preset.ID, err)
	}
	engine, hookNotes, err := loadHooks(in.home, s.Workspace, in.id, &in.scope.hookMemo)
	if err != nil {
		return composition{}, err
	}
	notes = append(notes, hookNotes...)
	runner := tools.NewRunner(reg, tools.RunnerConfig{Approvals: in.scope.approvals.WithPolicy(policy), Hooks: engine.ToolHooks()})
	cfg := agent.Config{
		Provider: provider,
		Model:    model,
		System:   system,
		MaxSteps: s.MaxSteps,
		Retry:    in.retry,
		Hooks:    in.scope.hooks(in.hooks),
		Env:      &tools.Env{SessionID: in.id, Workspace: s.Workspace, SpillDir: in.spill, Mode: s.Sandbox, ReadOnly: in.scope.plan.ReadOnly},
		Tools:    agent.FromRunner(runner),
		Refresh:  in.refresher(reg, runner, vars),
		// The window is the model table's, --context-window applied.
		Compaction: compact.Config{Window: choice.Info.ContextWindow, MaxOutput: choice.Info.MaxOutput, Auto: in.preset.Compact && !s.NoCompact},
	}
	if in.preset.Snapshots {
		ctx := prompt.Context{Sandbox: s.Sandbox, Approval: s.Approval, Workspace: s.Workspace, Date: today}
		mode := in.scope.plan
		sc := in.scope
		cfg.Context = func() prompt.Context { c := ctx; c.Plan, c.Jobs = mode.Active(), sc.pendingJobs(); return c }
	}
	return composition{cfg: cfg, reg: reg, hooks: engine, model: choice.Info, notices: append(choice.Notices, notes...)}, nil
}

// sections are the system prompt sections of a composition: the
// preset's (with the plan policy, PTC rule and SDK), the skills catalog
// when the skill tool is there (capped for the model's window) and the
// project instructions.
func (in composeInput) sections(reg *tools.Registry) ([]prompt.Section, error) {
	sections, err := SystemSections(in.preset, reg)
	if err != nil {
		return nil, err
	}
	if _, ok := reg.Lookup(toolbox.SkillName); ok {
		sections = append(sections, in.skills.Section(skills.Budget(in.window)))
	}
	sections = append(sections, in.project)
	if in.output != nil {
		sections = append(sections, in.output.Section())
	}
	return sections, nil
}

// SystemSections are the preset's prompt sections, the plan policy when
// the tool set has exit_plan_mode, and, when programs call tools
// (presentation ptc or both), the PTC rule and the SDK declarations of
// every tool a program may call.
func SystemSections(preset *presets.Preset, reg *tools.Registry) ([]prompt.Section, error) {
	sections := preset.PromptSections()
	if _, ok := reg.Lookup(plan.ExitName); ok {
		sections = append(sections, plan.Section())
	}
	if reg.Presentation() == tools.PresentNative {
		return sections, nil
	}
	var programs []tools.Tool
	for _, s := range reg.ProgramSpecs() {
		if t, ok := reg.Lookup(s.Name); ok {
			programs = append(programs, t)
		}
	}
	extra, err := ptc.Sections(programs)
	if err != nil {
		return nil, fmt.Errorf("preset %s: rendering the SDK section: %w", preset.ID, err)
	}
	return append(sections, extra...), nil
}
