package sandbox

import (
	"context"
	"fmt"

	"github.com/ptc-dev/ptc/sandbox/hostfileops"
	"github.com/ptc-dev/ptc/sandbox/memfs"
	"github.com/ptc-dev/ptc/sandbox/proto"
	"github.com/ptc-dev/ptc/sandbox/rootfs"
	"github.com/ptc-dev/ptc/sandbox/search"
)

// FileResult is what File reports besides the response: whether the
// session's write quota refused the write, and the note a guest call
// would carry for it.
type FileResult struct {
	QuotaHit bool
	Note     string
}

// File performs a file operation (proto.OpRead, OpWrite, OpEdit, OpStat)
// for scope natively on the host, over the mounts a guest command of
// scope would see — the workspace (read-write by the mode, with its
// protected paths and the session's write quota), an empty /tmp (a
// command's /tmp is gone once it ends), Config.ReadOnlyDirs and the
// session's spill — each confined by the same filesystem types as the
// guest's (package hostfileops). It answers as the guest's file
// operations do, without the guest: no instance, no compile. It takes one
// of the MaxRunning slots like a command. A failed operation is a
// response with Error set; the error is ctx's when it ended first, or a
// mount that could not be opened.
func (h *Host) File(ctx context.Context, scope Scope, op string, req proto.FileRequest) (proto.FileResponse, FileResult, error) {
	key, err := newKey(scope)
	if err != nil {
		return proto.FileResponse{}, FileResult{}, err
	}
	if key.mode == DangerFullAccess {
		return proto.FileResponse{}, FileResult{}, fmt.Errorf("sandbox: file operations run confined; ask for %s or a narrower mode", WorkspaceWrite)
	}
	done, busy := h.acquire(ctx)
	if busy != nil {
		return proto.FileResponse{}, FileResult{}, ctx.Err()
	}
	defer done()
	ws, mounts, closeAll, err := h.fileMounts(key)
	if err != nil {
		return proto.FileResponse{}, FileResult{}, err
	}
	defer closeAll()
	resp := hostfileops.Do(mounts, op, &req)
	var res FileResult
	if ws.TakeQuotaHit() {
		res = FileResult{QuotaHit: true, Note: quotaRoom(ws) + "; remove files the session made, or ask the user for a larger quota"}
	}
	if key.mode == GitWrite {
		ws.DisarmGitState()
	}
	return resp, res, nil
}

// fileMounts opens key's mounts for a file operation: the workspace as a
// guest instance of key mounts it, the rest as searchMounts does.
func (h *Host) fileMounts(key poolKey) (*rootfs.FS, []search.Mount, func(), error) {
	ws, err := rootfs.New(key.ws, h.workspaceOptions(key))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("sandbox: opening workspace %s: %w", key.ws, err)
	}
	opened := []*rootfs.FS{ws}
	closeAll := func() {
		for _, fs := range opened {
			_ = fs.Close()
		}
	}
	mounts := []search.Mount{{Dir: key.ws, FS: ws}}
	if key.ws != "/tmp" {
		mounts = append(mounts, search.Mount{Dir: "/tmp", FS: memfs.New(h.cfg.TmpSize, h.cfg.MaxOpen)})
	}
	for _, dir := range h.readOnlyDirs(key) {
		fs, err := rootfs.New(dir, rootfs.Options{ReadOnly: true, MaxOpen: h.cfg.MaxOpen})
		if err != nil {
			closeAll()
			return nil, nil, nil, fmt.Errorf("sandbox: opening the read-only mount %s: %w", dir, err)
		}
		opened = append(opened, fs)
		mounts = append(mounts, search.Mount{Dir: dir, FS: fs})
	}
	return ws, mounts, closeAll, nil
}
