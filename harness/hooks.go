package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/hooks"
	"github.com/ptc-dev/ptc/runtime/settingsfile"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/sandbox/hostexec"
)

// loadHooks reads the user's and the workspace's settings.json hooks
// into the session's engine: user hooks run as the user's commands,
// project hooks, once approved, confined (confinedHook). The notes are
// the project file's problems.
func loadHooks(home, workspace, sessionID string, memo *hooks.Memo) (*hooks.Engine, []string, error) {
	set, notes, err := hooks.Load(settingsfile.User(home), settingsfile.Project(workspace))
	if err != nil {
		return nil, nil, err
	}
	return hooks.New(set, hooks.Config{Workspace: workspace, SessionID: sessionID, Trust: hooks.OpenTrust(home),
		Project: confinedHook, Memo: memo}), notes, nil
}

// confinedHook runs a project hook as host programs run: under
// bubblewrap, the workspace read-only, a HOME of the hook's own, no
// network, an environment of HOME, PATH, TMPDIR and the hook's
// variables — nothing of ptc's (no API key).
func confinedHook(ctx context.Context, s hooks.Spec) hooks.Run {
	start := time.Now()
	r := hooks.Run{ExitCode: -1}
	defer func() { r.Duration = time.Since(start) }()
	var limits hostexec.Limits
	if hx, err := sandbox.HostExecFromEnv(os.Getenv); err == nil {
		limits = hx.Limits
	}
	runner := hostexec.NewRunner(hostexec.Config{Limits: limits})
	userHome := hostexec.UserHome()
	path, root, err := hostexec.Command("sh", s.Dir, s.Dir, os.Getenv("PATH"), userHome)
	if err != nil {
		r.Err = err
		return r
	}
	home, err := runner.ServerHome(s.Dir, "hook-"+s.Hook.Fingerprint()[:16])
	if err != nil {
		r.Err = err
		return r
	}
	pathDirs := hostexec.NewResolver(nil, os.Getenv("PATH"), userHome, nil).Dirs()
	env := append([]string{"HOME=" + home, "PATH=" + strings.Join(pathDirs, ":"), "TMPDIR=/tmp"}, s.Env...)
	var out, errOut hooks.Capped
	spec := hostexec.Spec{Path: path, Args: []string{"sh", "-c", s.Hook.Command}, Env: env, Dir: s.Dir, Workspace: s.Dir,
		TmpSize: mcpTmpSize, Dirs: hostexec.Dirs{Home: home}, Limits: hostexec.Limits{CPU: -1},
		Stdin: strings.NewReader(string(s.Stdin)), Stdout: &out, Stderr: &errOut}
	if root != "" {
		spec.ReadOnly = []string{root}
	}
	res, err := runner.Run(ctx, spec)
	r.Stdout, r.Stderr = out.String(), errOut.String()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		r.TimedOut = true
	case err != nil:
		r.Err = fmt.Errorf("the sandbox could not run it: %w", err)
	default:
		r.ExitCode = res.ExitCode
	}
	return r
}

// hookEnv is the Env hooks outside a tool call run with: the session's
// approvals and log.
func (s *Session) hookEnv() *tools.Env {
	return &tools.Env{SessionID: s.ID(), Workspace: s.Settings().Workspace, Approvals: s.Approvals(), Sink: s.Sink()}
}

// currentHooks is the engine of the session's composition.
func (s *Session) currentHooks() *hooks.Engine {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hooks
}

// submitPrompt runs the UserPromptSubmit hooks on what the user typed:
// a refusal is the run's error; context they add joins the text.
func (s *Session) submitPrompt(ctx context.Context, in *agent.Input) error {
	e := s.currentHooks()
	if e == nil || e.Len() == 0 || in == nil || in.Source.Kind != "user" {
		return nil
	}
	text, err := e.Prompt(ctx, s.hookEnv(), in.Text)
	if err != nil {
		return err
	}
	in.Text = text
	return nil
}

// notifyHooks runs the hooks of a notification event.
func (s *Session) notifyHooks(ctx context.Context, ev hooks.Event, fields map[string]any) {
	if e := s.currentHooks(); e != nil && e.Len() > 0 {
		e.Notify(ctx, s.hookEnv(), ev, fields)
	}
}
