package sandbox

import (
	"fmt"
	"io"

	"github.com/ptc-dev/ptc/sandbox/hostexec"
	"github.com/ptc-dev/ptc/sandbox/memfs"
	"github.com/ptc-dev/ptc/sandbox/rootfs"
)

// hostCall is what one host program run needs besides its scope: the
// program (resolved path and the toolchain root it lies under), argv,
// the caller's environment and directory, the network setting, the
// scope's allow list, and where notes for the user go.
type hostCall struct {
	path, root string
	args, env  []string
	dir        string
	network    bool
	programs   []string
	notes      io.Writer
}

// programSpec is the hostexec.Spec of a host program of scope key whose
// workspace writes go through fs and whose /tmp is tmp: the same mounts,
// protection, quota and session network for a guest's program and for
// one started directly (a terminal). The appliers it returns take the
// program's changes; the caller finishes them once it ended. Stdio is
// the caller's to set.
func (h *Host) programSpec(key poolKey, fs *rootfs.FS, tmp *memfs.FS, c hostCall) (hostexec.Spec, *applier, *applier, error) {
	home, err := h.hx.runner.Home()
	if err != nil {
		return hostexec.Spec{}, nil, nil, err
	}
	spec := hostexec.Spec{Path: c.path, Args: c.args, Env: programEnv(c.env, home, c.dir, h.hx.resolverFor(c.programs).Dirs()), Dir: c.dir,
		Workspace: key.ws, Writable: key.mode != ReadOnly, ReadOnly: append([]string(nil), h.hx.readOnly...), Network: c.network}
	if c.root != "" {
		spec.ReadOnly = append(spec.ReadOnly, c.root)
	}
	if !c.network && key.session != "" {
		var note string
		if spec.NetNS, note = h.hx.nets.get(key.session); note != "" && c.notes != nil {
			fmt.Fprintf(c.notes, "ptc: %s\n", note)
		}
	}
	if key.spill != "" {
		spec.ReadOnly = append(spec.ReadOnly, key.spill)
	}
	if spec.Writable {
		spec.Protect = protectedInView(key.ws, key.mode, h.protected())
		spec.LayerSize = layerSize(fs)
	}
	ap := &applier{fs: fs, full: fs.QuotaHit, room: quotaRoom(fs)}
	spec.Apply = func(r io.Reader) error { return hostexec.ReadChanges(r, ap.apply) }
	tmpAp := &applier{fs: tmp, full: tmp.Full, room: tmpRoom(tmp)}
	spec.Tmp = tmp.WriteTar
	spec.ApplyTmp = func(r io.Reader) error { return hostexec.ReadChanges(r, tmpAp.apply) }
	return spec, ap, tmpAp, nil
}
