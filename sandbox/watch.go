package sandbox

import (
	"path/filepath"
	"sync"
)

// watchers are the functions told of every write to a workspace made
// through the sandbox: the guest's own writes (shell builtins, the file
// tools) and the changes of host programs alike, since all of them go
// through the workspace's rootfs.FS.
type watchers struct {
	mu   sync.Mutex
	next int
	by   map[string]map[int]func(rel string) // workspace → id → fn
}

// Watch calls fn with the workspace-relative path (forward slashes, "."
// for the root) of every mutation about to be made in workspace by any
// command of this Host, in any mode but danger-full-access (which runs
// on the host unconfined, unseen), until stop is called. fn runs on the
// writing goroutine before the write, with no lock of the sandbox held;
// it must not write to the workspace through the sandbox.
func (h *Host) Watch(workspace string, fn func(rel string)) (stop func()) {
	ws := filepath.Clean(workspace)
	w := &h.watch
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.by == nil {
		w.by = map[string]map[int]func(string){}
	}
	if w.by[ws] == nil {
		w.by[ws] = map[int]func(string){}
	}
	id := w.next
	w.next++
	w.by[ws][id] = fn
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.by[ws], id)
		if len(w.by[ws]) == 0 {
			delete(w.by, ws)
		}
	}
}

// notifier is the rootfs Before hook of workspace ws: it looks the
// watchers up at each call, so pooled instances made before a Watch see
// it too.
func (h *Host) notifier(ws string) func(rel string) {
	ws = filepath.Clean(ws)
	return func(rel string) {
		h.watch.mu.Lock()
		fns := make([]func(string), 0, len(h.watch.by[ws]))
		for _, fn := range h.watch.by[ws] {
			fns = append(fns, fn)
		}
		h.watch.mu.Unlock()
		for _, fn := range fns {
			fn(rel)
		}
	}
}
