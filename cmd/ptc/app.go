package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/presets"
	"github.com/ptc-dev/ptc/ptc"
	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/backend"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
)

// runFlags are the flags shared by `ptc run` and interactive `ptc`
// (DESIGN.md §11).
type runFlags struct {
	preset    string
	model     string
	baseURL   string
	workspace string
	home      string
	sandbox   string
	approval  string
	maxSteps  int
	resume    string
	output    string
}

func (f *runFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.preset, "preset", "ptc", "preset: ptc, standard or minimal")
	fl.StringVar(&f.model, "model", "", "model name (e.g. deepseek-chat), or script:FILE to replay scripted replies")
	fl.StringVar(&f.baseURL, "base-url", "", "OpenAI-compatible API root, e.g. http://127.0.0.1:8000/v1")
	fl.StringVar(&f.workspace, "workspace", "", "workspace directory (default: the current directory)")
	fl.StringVar(&f.home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	fl.StringVar(&f.sandbox, "sandbox", "", "sandbox mode: read-only, workspace-write or danger-full-access (default: the preset's)")
	fl.StringVar(&f.approval, "approval", "ask", "approval policy: ask or never")
	fl.IntVar(&f.maxSteps, "max-steps", 0, "end a turn after this many model requests (0: no limit)")
	fl.StringVar(&f.resume, "resume", "", "continue the session with this id")
}

// app is one wired session: the open store, the session log and the agent.
type app struct {
	host    *sandbox.Host
	store   *session.BadgerStore
	log     *session.Log
	agent   *agent.Agent
	model   string
	resumed bool
}

// observer receives every event the agent appends.
type observer func(session.Event)

// openApp opens the store, creates or resumes the session (repairing an
// interrupted turn) and builds the agent. The caller closes the app.
func openApp(ctx context.Context, f *runFlags, obs observer) (*app, error) {
	if err := checkModes(f); err != nil {
		return nil, err
	}
	workspace, err := resolveWorkspace(f.workspace)
	if err != nil {
		return nil, err
	}
	provider, model, err := backend.Open(f.model, f.baseURL, os.Getenv)
	if err != nil {
		return nil, err
	}
	set, err := loadPresets(f.home)
	if err != nil {
		return nil, err
	}
	preset, err := set.Get(f.preset)
	if err != nil {
		return nil, err
	}
	store, err := openStore(f.home, false)
	if err != nil {
		return nil, err
	}
	host, err := newHost(f.home)
	if err != nil {
		store.Close()
		return nil, err
	}
	a := &app{host: host, store: store, model: model}
	if err := a.openLog(ctx, f, workspace); err != nil {
		a.Close()
		return nil, err
	}
	cfg, err := agentConfig(f, preset, provider, model, workspace, a.log.Header().ID, host, obs)
	if err != nil {
		a.Close()
		return nil, err
	}
	if a.agent, err = agent.New(cfg, a.log); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

func (a *app) openLog(ctx context.Context, f *runFlags, workspace string) error {
	if f.resume == "" {
		h := session.Header{Cwd: workspace, Preset: f.preset, Model: f.model}
		log, err := session.Create(ctx, a.store, h, session.LogOptions{})
		a.log = log
		return err
	}
	log, err := session.Open(ctx, a.store, f.resume, session.LogOptions{})
	if errors.Is(err, session.ErrNotFound) {
		return unknownSession(f.resume, a.store.Dir())
	}
	if err != nil {
		return err
	}
	for _, w := range log.Warnings() {
		fmt.Fprintln(os.Stderr, "ptc: warning:", w)
	}
	if _, err := log.Repair(ctx); err != nil {
		return err
	}
	a.log, a.resumed = log, true
	return nil
}

// ID is the session id.
func (a *app) ID() string { return a.log.Header().ID }

// Close makes the log durable and releases the store.
func (a *app) Close() error {
	var err error
	if a.log != nil {
		err = a.log.Sync(context.Background())
	}
	err = errors.Join(err, a.store.Close())
	if a.host != nil {
		err = errors.Join(err, a.host.Close(context.Background()))
	}
	return err
}

// agentConfig wires the preset (prompt sections, snapshots, step budget,
// sandbox default, tool set) and the flags into the agent's config.
func agentConfig(f *runFlags, preset *presets.Preset, p llm.Provider, model, workspace, id string, host *sandbox.Host, obs observer) (agent.Config, error) {
	home, err := resolveHome(f.home)
	if err != nil {
		return agent.Config{}, err
	}
	today := time.Now().Format("2006-01-02")
	policy, err := tools.ParsePolicy(f.approval)
	if err != nil {
		return agent.Config{}, err
	}
	mode := f.sandbox
	if mode == "" {
		mode = preset.Sandbox
	}
	reg, err := toolRegistry(toolsetConfig{preset: preset, workspace: workspace, sandbox: mode, host: host, approval: policy})
	if err != nil {
		return agent.Config{}, err
	}
	sections, err := systemSections(preset, reg)
	if err != nil {
		return agent.Config{}, err
	}
	vars := map[string]string{"cwd": workspace, "workspace": workspace, "model": model, "preset": preset.ID, "os": runtime.GOOS, "date": today}
	system, err := prompt.Render(sections, vars)
	if err != nil {
		return agent.Config{}, fmt.Errorf("preset %s: %w", preset.ID, err)
	}
	maxSteps := f.maxSteps
	if maxSteps == 0 {
		maxSteps = preset.MaxSteps
	}
	cfg := agent.Config{
		Provider: p,
		Model:    model,
		System:   system,
		MaxSteps: maxSteps,
		Observer: obs,
		Env:      &tools.Env{SessionID: id, Workspace: workspace, SpillDir: spillDir(home, id), Answerer: newTerminalAnswerer()},
	}
	if preset.Snapshots {
		cfg.Context = func() prompt.Context {
			return prompt.Context{Sandbox: mode, Approval: f.approval, Workspace: workspace, Date: today}
		}
	}
	cfg.Tools = agent.FromRunner(tools.NewRunner(reg, tools.RunnerConfig{Policy: policy}))
	if d := os.Getenv("PTC_TEST_RETRY_DELAY"); d != "" {
		delay, err := time.ParseDuration(d)
		if err != nil {
			return cfg, fmt.Errorf("PTC_TEST_RETRY_DELAY: %w", err)
		}
		rp := llm.DefaultRetryPolicy()
		rp.Base, rp.Max, rp.Jitter = delay, delay, 0
		cfg.Retry = rp
	}
	return cfg, nil
}

// toolRegistry builds the preset's tools. The hidden PTC_TEST_TOOLS variable
// swaps in a single slow test tool so the crash tests can kill a run
// mid-tool.
func toolRegistry(cfg toolsetConfig) (*tools.Registry, error) {
	if os.Getenv("PTC_TEST_TOOLS") != "" {
		return tools.NewRegistry(tools.PresentNative, sleepTool())
	}
	return buildToolset(cfg)
}

// systemSections are the preset's prompt sections plus, when programs
// call tools (presentation ptc or both), the PTC rule and the SDK
// declarations of every tool a program may call.
func systemSections(preset *presets.Preset, reg *tools.Registry) ([]prompt.Section, error) {
	sections := preset.PromptSections()
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

// newHost makes the process's sandbox host with the spill area mounted
// read-only, and starts compiling the guest in the background.
func newHost(homeFlag string) (*sandbox.Host, error) {
	home, err := resolveHome(homeFlag)
	if err != nil {
		return nil, err
	}
	spill := filepath.Join(home, "spill")
	if err := os.MkdirAll(spill, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create the spill area: %w", err)
	}
	host := sandbox.NewHost(sandbox.Config{ReadOnlyDirs: []string{spill}})
	host.Warm()
	return host, nil
}

// spillDir is where results too large for the model's context are kept
// in full: <home>/spill/<session id>, outside the workspace so a session
// leaves nothing behind in the repository. The sandbox mounts it
// read-only so the read tool can page through it.
func spillDir(home, id string) string {
	return filepath.Join(home, "spill", id)
}

type sleepArgs struct {
	Ms int `json:"ms"`
}

func sleepTool() tools.Tool {
	spec := tools.Spec{
		Name:        "test_sleep",
		Description: "Wait for ms milliseconds (test tool).",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer","minimum":0}},"required":["ms"]}`),
	}
	return tools.New(spec, func(ctx context.Context, _ tools.Call, in sleepArgs) (string, error) {
		select {
		case <-time.After(time.Duration(in.Ms) * time.Millisecond):
			return fmt.Sprintf("slept %d ms", in.Ms), nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	})
}

func resolveHome(flag string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	return session.DefaultHome()
}

// openStore opens the session store of home; readOnly is for listing and
// showing sessions.
func openStore(homeFlag string, readOnly bool) (*session.BadgerStore, error) {
	home, err := resolveHome(homeFlag)
	if err != nil {
		return nil, err
	}
	return session.OpenBadger(session.StoreDir(home), session.BadgerOptions{ReadOnly: readOnly})
}

// resolveWorkspace returns the workspace as an absolute path with
// symlinks resolved: the sandbox mounts it at that path, so every path a
// tool prints is the real one on the host too.
func resolveWorkspace(dir string) (string, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return "", fmt.Errorf("the workspace %s is not a directory; pass an existing directory to --workspace", abs)
	}
	return filepath.EvalSymlinks(abs)
}

func checkModes(f *runFlags) error {
	switch f.sandbox {
	case "", "read-only", "workspace-write", "danger-full-access":
	default:
		return fmt.Errorf("unknown sandbox mode %q: use read-only, workspace-write or danger-full-access", f.sandbox)
	}
	if _, err := tools.ParsePolicy(f.approval); err != nil {
		return err
	}
	switch f.output {
	case "", "text", "json", "stream-json":
	default:
		return fmt.Errorf("unknown output format %q: use text, json or stream-json", f.output)
	}
	if f.maxSteps < 0 {
		return errors.New("--max-steps must be 0 (no limit) or more")
	}
	return nil
}

func unknownSession(id, dir string) error {
	return fmt.Errorf("no session %q in %s; list the sessions with `ptc sessions` (and check --home / $PTC_HOME)", id, dir)
}
