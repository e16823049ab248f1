package tui

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/ptc-dev/ptc/runtime/session"
)

// maxDiffFile bounds the files the tracker reads to diff: larger ones are
// shown by name and size only.
const maxDiffFile = 1 << 20

// fileChange is what the tracker saw of one file a call changed: its
// content just before the call ran and just after it settled.
type fileChange struct {
	before, after       string
	hasBefore, hasAfter bool
	note                string // why there is no diff
}

func (f *fileChange) merge(o *fileChange) *fileChange {
	if f == nil {
		return o
	}
	out := *f
	if o.hasAfter {
		out.after, out.hasAfter = o.after, true
	}
	if o.note != "" {
		out.note = o.note
	}
	return &out
}

// item is one event on its way to the transcript, with the file snapshot
// taken for it.
type item struct {
	ev     session.Event
	change *fileChange
	gen    int
}

// tracker snapshots the files that file-changing calls touch. It runs on
// the goroutine appending events: a tool/call (or a program's dispatch
// start) is appended before the tool body runs, so the file read then is
// the content before the change, and the read at the result is the
// content after it.
type tracker struct {
	mu        sync.Mutex
	workspace string
	paths     map[string]string // call id → absolute path, while running
}

func newTracker(workspace string) *tracker {
	return &tracker{workspace: workspace, paths: map[string]string{}}
}

func (tr *tracker) setWorkspace(ws string) {
	tr.mu.Lock()
	tr.workspace = ws
	tr.mu.Unlock()
}

// observe returns ev as an item, with a snapshot when ev starts or ends a
// file-changing call.
func (tr *tracker) observe(ev session.Event) item {
	it := item{ev: ev}
	switch ev.Type {
	case session.TypeToolCall:
		var d session.ToolCall
		if decode(ev, &d) {
			it.change = tr.start(d.CallID, d.Name, d.Arguments)
		}
	case session.TypePtcDispatchStart:
		var d session.PtcDispatch
		if decode(ev, &d) {
			it.change = tr.start(d.SubCallID, d.Name, d.Arguments)
		}
	case session.TypeToolResult:
		var d session.ToolResult
		if decode(ev, &d) {
			it.change = tr.finish(d.CallID)
		}
	case session.TypePtcDispatch:
		var d session.PtcDispatch
		if decode(ev, &d) {
			it.change = tr.finish(d.SubCallID)
		}
	case session.TypeSettings:
		var d session.SettingsChange
		if decode(ev, &d) && d.Settings.Workspace != "" {
			tr.setWorkspace(d.Settings.Workspace)
		}
	}
	return it
}

func (tr *tracker) start(id, name, raw string) *fileChange {
	p := changedPath(name, raw)
	if p == "" {
		return nil
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	abs, ok := tr.resolve(p)
	if !ok {
		return &fileChange{note: "outside the workspace"}
	}
	tr.paths[id] = abs
	content, _, note := readWorkspaceFile(tr.workspace, abs)
	return &fileChange{before: content, hasBefore: note == "", note: note}
}

func (tr *tracker) finish(id string) *fileChange {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	abs, ok := tr.paths[id]
	if !ok {
		return nil
	}
	delete(tr.paths, id)
	content, found, note := readWorkspaceFile(tr.workspace, abs)
	return &fileChange{after: content, hasAfter: found && note == "", note: note}
}

func (tr *tracker) resolve(p string) (string, bool) {
	if tr.workspace == "" {
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(tr.workspace, p)
	}
	p = filepath.Clean(p)
	rel, err := filepath.Rel(tr.workspace, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return p, true
}

// changedPath is the file a call changes, "" for calls that change none.
func changedPath(name, raw string) string {
	var a struct {
		FilePath string `json:"file_path"`
		Path     string `json:"path"`
		Command  string `json:"command"`
	}
	if json.Unmarshal([]byte(raw), &a) != nil {
		return ""
	}
	switch name {
	case "write", "edit":
		return a.FilePath
	case "str_replace_editor":
		switch a.Command {
		case "create", "str_replace", "insert":
			return a.Path
		}
	}
	return ""
}

// readWorkspaceFile reads a file under the workspace through os.Root, so
// a symlink cannot lead the read outside it, and only when it is a
// regular file of at most maxDiffFile bytes (opened non-blocking: a FIFO
// planted by a repository must not hang the UI). found is false when the
// file does not exist; note says why a file that exists was not read.
func readWorkspaceFile(workspace, abs string) (content string, found bool, note string) {
	rel, err := filepath.Rel(workspace, abs)
	if err != nil {
		return "", false, "outside the workspace"
	}
	root, err := os.OpenRoot(workspace)
	if err != nil {
		return "", false, "workspace unreadable"
	}
	defer root.Close()
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, os.ErrNotExist) {
		return "", false, ""
	}
	if err != nil {
		return "", false, "not readable here"
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil || !st.Mode().IsRegular():
		return "", false, "not a regular file"
	case st.Size() > maxDiffFile:
		return "", false, "too large to diff"
	}
	b, err := io.ReadAll(io.LimitReader(f, maxDiffFile+1))
	if err != nil || len(b) > maxDiffFile {
		return "", false, "not readable here"
	}
	if !utf8.Valid(b) || strings.IndexByte(string(b), 0) >= 0 {
		return "", true, "binary file"
	}
	return string(b), true, ""
}
