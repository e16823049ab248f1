package sandbox

import (
	"fmt"
	"io"
	"sync"

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
// program's changes; the caller finishes them once it ended, and calls
// release then (the program's share of the session's memory budget).
// Stdio is the caller's to set.
func (h *Host) programSpec(key poolKey, fs *rootfs.FS, tmp *memfs.FS, c hostCall) (spec hostexec.Spec, ap, tmpAp *applier, release func(), err error) {
	dirs, err := h.hx.runner.DirsFor(key.ws, key.session)
	if err != nil {
		return hostexec.Spec{}, nil, nil, nil, err
	}
	spec = hostexec.Spec{Path: c.path, Args: c.args, Env: programEnv(c.env, dirs, c.dir, h.hx.resolverFor(c.programs).Dirs()), Dir: c.dir,
		Workspace: key.ws, Writable: key.mode != ReadOnly, Dirs: dirs, ReadOnly: append([]string(nil), h.hx.readOnly...), Network: c.network}
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
	var wantLayer int64
	if spec.Writable {
		spec.Protect = protectedInView(key.ws, key.mode, h.protected())
		wantLayer = layerSize(fs)
	}
	budget := h.budget(key)
	sh, err := budget.reserve(wantLayer, 2*h.cfg.TmpSize, tmp.Used())
	if err != nil {
		return hostexec.Spec{}, nil, nil, nil, err
	}
	spec.LayerSize, spec.TmpSize = sh.layer, sh.tmp
	ap = &applier{fs: fs, full: fs.QuotaHit, room: quotaRoom(fs)}
	spec.Apply = func(r io.Reader) error { return hostexec.ReadChanges(r, ap.apply) }
	tmpAp = &applier{fs: tmp, full: tmp.Full, room: tmpRoom(tmp)}
	spec.Tmp = tmp.WriteTar
	spec.ApplyTmp = func(r io.Reader) error { return hostexec.ReadChanges(r, tmpAp.apply) }
	var once sync.Once
	return spec, ap, tmpAp, func() { once.Do(func() { budget.release(sh) }) }, nil
}
