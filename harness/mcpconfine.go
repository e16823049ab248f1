package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ptc-dev/ptc/runtime/mcp"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/sandbox/hostexec"
)

// mcpConfiner runs a project's confined MCP servers under bubblewrap,
// as host programs run: the workspace read-only, a HOME of the server's
// own, no network unless its definition asks and the approval said so,
// and an environment of only HOME, PATH, TMPDIR and what its definition
// lists — nothing of ptc's (no API key).
type mcpConfiner struct {
	runner *hostexec.Runner
	home   string // the user's HOME, never mounted
}

func newMCPConfiner() *mcpConfiner {
	var limits hostexec.Limits
	if hx, err := sandbox.HostExecFromEnv(os.Getenv); err == nil {
		limits = hx.Limits // a bad value fails the host programs with its message; servers keep the defaults
	}
	return &mcpConfiner{runner: hostexec.NewRunner(hostexec.Config{Limits: limits}), home: hostexec.UserHome()}
}

// Run implements mcp.Confiner.
func (c *mcpConfiner) Run(ctx context.Context, p mcp.Program) error {
	if err := c.runner.Available(); err != nil {
		return err
	}
	ws := filepath.Clean(p.Workspace)
	dir := filepath.Clean(p.Dir)
	if dir != ws && !strings.HasPrefix(dir, ws+"/") {
		return fmt.Errorf("a confined server runs inside the workspace (%s), not in %s", ws, dir)
	}
	path, root, err := hostexec.Command(p.Command, dir, ws, os.Getenv("PATH"), c.home)
	if err != nil {
		return err
	}
	home, err := c.runner.ServerHome(ws, p.Server)
	if err != nil {
		return err
	}
	pathDirs := hostexec.NewResolver(nil, os.Getenv("PATH"), c.home, nil).Dirs()
	env := []string{"HOME=" + home, "PATH=" + strings.Join(pathDirs, ":"), "TMPDIR=/tmp"}
	keys := make([]string, 0, len(p.Env))
	for k := range p.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+p.Env[k])
	}
	spec := hostexec.Spec{Path: path, Args: append([]string{p.Command}, p.Args...), Env: env, Dir: dir, Workspace: ws,
		TmpSize: mcpTmpSize, Dirs: hostexec.Dirs{Home: home}, Network: p.Network, Limits: hostexec.Limits{CPU: -1},
		Stdin: p.Stdin, Stdout: p.Stdout, Stderr: p.Stderr}
	if root != "" {
		spec.ReadOnly = []string{root}
	}
	res, err := c.runner.Run(ctx, spec)
	if err == nil && res.ExitCode != 0 && ctx.Err() == nil {
		fmt.Fprintf(p.Stderr, "[ptc] the confined server exited with status %d\n", res.ExitCode)
	}
	return err
}

// mcpTmpSize bounds a confined server's /tmp (a long-lived server should
// not hold the host programs' 1 GiB).
const mcpTmpSize = 256 << 20
