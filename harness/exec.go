package harness

import (
	"context"
	"os"
	"time"

	"github.com/ptc-dev/ptc/ptc"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/toolbox"
)

// ExecOptions are one `ptc exec` run: a run_code program against the ptc
// preset's tools, without a model.
type ExecOptions struct {
	// Workspace is the absolute workspace directory.
	Workspace string
	// Mode is the sandbox mode the tools run in.
	Mode sandbox.Mode
	// Network lets host programs the sandbox runs reach the network.
	Network bool
	// Code is the program; Timeout its wall-time budget (0: the default).
	Code    string
	Timeout time.Duration
}

// Exec runs one program the way a session's run_code does: its nested
// calls go through the same Runner pipeline, approvals are denied (there
// is nobody to ask), and output past the visible cap is saved under the
// returned spill directory, as in a session. A program that fails is an
// Outcome, not an error.
func (h *Home) Exec(ctx context.Context, o ExecOptions) (*ptc.Outcome, string, error) {
	set, err := h.Presets()
	if err != nil {
		return nil, "", err
	}
	preset, err := set.Get("ptc")
	if err != nil {
		return nil, "", err
	}
	// A program makes many calls: keep the instance pool (RunShell, which
	// runs one command, does without it). The guest is loaded by the
	// first call that needs it, not before the program starts.
	host, err := h.lazyHost()
	if err != nil {
		return nil, "", err
	}
	reg, err := programRegistry(ToolsetConfig{Preset: preset, Workspace: o.Workspace, Sandbox: string(o.Mode), Host: host, Network: o.Network})
	if err != nil {
		return nil, "", err
	}
	runner := tools.NewRunner(reg, tools.RunnerConfig{Approvals: tools.NewApprovals(tools.PolicyNever)})
	spill := h.SpillDir("exec-" + time.Now().UTC().Format("20060102T150405.000000000"))
	ctx = tools.WithEnv(ctx, &tools.Env{Workspace: o.Workspace, Dispatcher: runner, SpillDir: spill})
	names := make([]string, 0)
	for _, s := range reg.ProgramSpecs() {
		names = append(names, s.Name)
	}
	out := ptc.Run(ctx, ptc.Limits{Timeout: o.Timeout}, ptc.Request{
		CallID: "exec", Code: o.Code, Tools: names, Dispatcher: runner, Timeout: o.Timeout,
	})
	return out, spill, nil
}

// programRegistry builds a preset's tools for programs, run_code left out
// (the program is already running).
func programRegistry(cfg ToolsetConfig) (*tools.Registry, error) {
	reg, err := Toolset(cfg)
	if err != nil {
		return nil, err
	}
	var ts []tools.Tool
	for _, s := range reg.ProgramSpecs() {
		if t, ok := reg.Lookup(s.Name); ok {
			ts = append(ts, t)
		}
	}
	return tools.NewRegistry(tools.PresentPTC, ts...)
}

// ShellOptions are one `ptc sh` command.
type ShellOptions struct {
	// Workspace is the absolute workspace directory; the command runs
	// there.
	Workspace string
	Mode      sandbox.Mode
	Network   bool
	Command   string
	// Timeout stops the command (0: the bash tool's default).
	Timeout time.Duration
	// Notice is told when the guest has to be compiled cold
	// (sandbox.Config.Notice); nil says nothing.
	Notice func(string)
}

// RunShell runs one command exactly as the bash tool runs it, on a host
// of its own without an instance pool (one command needs none), and
// returns its outcome.
func RunShell(ctx context.Context, o ShellOptions) (sandbox.Outcome, error) {
	if o.Timeout <= 0 {
		o.Timeout = toolbox.DefaultBashTimeout
	}
	hx, err := sandbox.HostExecFromEnv(os.Getenv)
	if err != nil {
		return sandbox.Outcome{}, err
	}
	host := sandbox.NewHost(sandbox.Config{PoolSize: -1, HostExec: hx, Notice: o.Notice})
	host.Warm()
	defer host.Close(context.Background())
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	return toolbox.RunCommand(ctx, host, sandbox.Scope{Workspace: o.Workspace, Mode: o.Mode, Network: o.Network}, o.Command, o.Workspace)
}
