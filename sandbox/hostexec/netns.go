package hostexec

import (
	"context"
	"fmt"
	"os/exec"
)

// command is the bwrap command for spec: bwrap itself, or, when the
// program joins a session's network namespace (Spec.NetNS), bwrap
// started through the namespace's nsenter, which execs it in place (so
// the process is still bwrap, with its death signal and process group).
// A namespace that is gone fails the run rather than fall back to the
// host's network.
func (r *Runner) command(ctx context.Context, spec Spec, args []string) (*exec.Cmd, error) {
	if spec.Network || spec.NetNS == nil {
		return exec.CommandContext(ctx, r.bwrap, args...), nil
	}
	path, argv, err := spec.NetNS.Wrap(r.bwrap, args)
	if err != nil {
		return nil, fmt.Errorf("host program: %w", err)
	}
	return exec.CommandContext(ctx, path, argv...), nil
}
