package sandbox

import (
	"context"
	"fmt"

	"github.com/ptc-dev/ptc/sandbox/memfs"
	"github.com/ptc-dev/ptc/sandbox/proto"
	"github.com/ptc-dev/ptc/sandbox/rootfs"
	"github.com/ptc-dev/ptc/sandbox/search"
)

// Search performs a glob or grep file operation (proto.OpGlob,
// proto.OpGrep) for scope natively on the host, over the mounts a guest
// command of scope would see — the workspace (read-only here), an empty
// /tmp (a command's /tmp is gone once it ends), Config.ReadOnlyDirs and
// the session's spill — each confined by the same filesystem types (see
// package search). It takes one of the MaxRunning slots like a command.
// A failed operation is a response with Error set; the error is ctx's
// when it ended first, or broken plumbing.
func (h *Host) Search(ctx context.Context, scope Scope, op string, req proto.FileRequest) (proto.FileResponse, error) {
	key, err := newKey(scope)
	if err != nil {
		return proto.FileResponse{}, err
	}
	if op != proto.OpGlob && op != proto.OpGrep {
		return proto.FileResponse{}, fmt.Errorf("sandbox: %q is not a search operation", op)
	}
	done, busy := h.acquire(ctx)
	if busy != nil {
		return proto.FileResponse{}, ctx.Err()
	}
	defer done()
	mounts, closeAll, err := h.searchMounts(key)
	if err != nil {
		return proto.FileResponse{}, err
	}
	defer closeAll()
	if op == proto.OpGlob {
		return search.Glob(ctx, mounts, &req)
	}
	return search.Grep(ctx, mounts, &req)
}

// searchMounts opens key's mounts read-only for a search.
func (h *Host) searchMounts(key poolKey) ([]search.Mount, func(), error) {
	var opened []*rootfs.FS
	closeAll := func() {
		for _, fs := range opened {
			_ = fs.Close()
		}
	}
	opts := h.workspaceOptions(key)
	opts.ReadOnly, opts.Quota = true, nil
	ws, err := rootfs.New(key.ws, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: opening workspace %s: %w", key.ws, err)
	}
	opened = append(opened, ws)
	mounts := []search.Mount{{Dir: key.ws, FS: ws}}
	if key.ws != "/tmp" {
		mounts = append(mounts, search.Mount{Dir: "/tmp", FS: memfs.New(0, 0)})
	}
	for _, dir := range h.readOnlyDirs(key) {
		fs, err := rootfs.New(dir, rootfs.Options{ReadOnly: true, MaxOpen: h.cfg.MaxOpen})
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("sandbox: opening the read-only mount %s: %w", dir, err)
		}
		opened = append(opened, fs)
		mounts = append(mounts, search.Mount{Dir: dir, FS: fs})
	}
	return mounts, closeAll, nil
}
