package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/memfs"
	"github.com/ptc-dev/ptc/sandbox/rootfs"
)

// Program is a host program started directly rather than from a guest
// command: a terminal's, whose stdio is a pseudo-terminal.
type Program struct {
	// Args is argv; Args[0] is looked up in the scope's allow list as a
	// guest command's program would be.
	Args []string
	// Dir is the working directory, inside the workspace or /tmp; ""
	// means the workspace.
	Dir string
	// Env are "K=V" pairs on top of the sandbox's environment.
	Env            []string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// ProgramEnd is how a Program ended.
type ProgramEnd struct {
	ExitCode int    // -1 when ctx ended it
	Signal   string // the signal that ended it, if any
	Note     string // changes the sandbox refused, a full quota
}

// RunProgram runs p confined in scope exactly as a guest command's host
// program runs (bubblewrap, the workspace under an overlay whose changes
// come back through the workspace's policy and the session's quota, a
// private /tmp, the session's network), and returns when it ends. ctx
// ending kills it and drops its changes. The mode must be a confined
// one: danger-full-access has no sandbox to put the program in.
func (h *Host) RunProgram(ctx context.Context, scope Scope, p Program) (ProgramEnd, error) {
	if scope.Mode == DangerFullAccess {
		return ProgramEnd{}, errors.New("sandbox: RunProgram confines its program; danger-full-access has no confinement")
	}
	if len(p.Args) == 0 {
		return ProgramEnd{}, errors.New("sandbox: RunProgram needs a program")
	}
	key, err := newKey(scope)
	if err != nil {
		return ProgramEnd{}, err
	}
	path, root, err := h.hx.lookup(scope.Programs, p.Args[0])
	if err != nil {
		return ProgramEnd{}, fmt.Errorf("%s: %w", p.Args[0], err)
	}
	dir := key.ws
	if p.Dir != "" {
		dir = filepath.Clean(p.Dir)
	}
	if !within(dir, key.ws) && !within(dir, "/tmp") {
		return ProgramEnd{}, fmt.Errorf("host programs run inside the workspace (%s) or /tmp, not in %s", key.ws, dir)
	}
	fs, err := rootfs.New(key.ws, h.workspaceOptions(key))
	if err != nil {
		return ProgramEnd{}, fmt.Errorf("sandbox: opening workspace %s: %w", key.ws, err)
	}
	defer fs.Close()
	tmp := memfs.New(h.cfg.TmpSize, h.cfg.MaxOpen)
	env := append([]string{"LANG=C.UTF-8"}, p.Env...)
	spec, ap, tmpAp, release, err := h.programSpec(key, fs, tmp, hostCall{path: path, root: root, args: p.Args, env: env, dir: dir,
		network: scope.Network, programs: scope.Programs, notes: p.Stderr})
	if err != nil {
		return ProgramEnd{}, err
	}
	defer release()
	spec.Stdin, spec.Stdout, spec.Stderr = p.Stdin, p.Stdout, p.Stderr
	res, err := h.hx.runner.Run(ctx, spec)
	if spec.Writable {
		ap.finish()
	}
	tmpAp.finish()
	if err != nil {
		return ProgramEnd{}, err
	}
	end := ProgramEnd{ExitCode: res.ExitCode, Signal: res.Signal}
	for _, a := range []*applier{ap, tmpAp} {
		end.Note = joinNote(end.Note, a.note(p.Args[0]))
	}
	if key.mode == GitWrite {
		if notes := fs.DisarmGitState(); len(notes) > 0 {
			end.Note = joinNote(end.Note, strings.Join(notes, "; "))
		}
	}
	return end, nil
}

// HostProgramAllowed reports whether name runs as a host program under
// the allow list programs (nil: the Host's) and bubblewrap can run here.
func (h *Host) HostProgramAllowed(programs []string, name string) bool {
	_, _, err := h.hx.lookup(programs, name)
	return err == nil
}
