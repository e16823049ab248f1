package checkpoint

import (
	"os"
	"sync"

	"github.com/ptc-dev/ptc/runtime/session"
)

// maxDirEntries bounds the entries recorded below one directory a turn
// renames or removes whole.
const maxDirEntries = 10000

// Recorder collects one session's checkpoints: Begin at a turn's start,
// Touch before every write (from any goroutine), End at the turn's end.
// Touches outside a turn are ignored.
type Recorder struct {
	root  *os.Root
	store Store
	cap   int64

	mu      sync.Mutex
	used    int64 // bytes kept so far (this process's count)
	turn    int
	open    bool
	before  map[string]session.FileState
	order   []string
	partial bool
}

// NewRecorder records the workspace ws into store, keeping at most
// capBytes (0: DefaultCapBytes) in it, what earlier runs of the session
// kept included. The caller closes it.
func NewRecorder(ws string, store Store, capBytes int64) (*Recorder, error) {
	root, err := os.OpenRoot(ws)
	if err != nil {
		return nil, err
	}
	if capBytes <= 0 {
		capBytes = DefaultCapBytes
	}
	return &Recorder{root: root, store: store, cap: capBytes, used: store.size()}, nil
}

// Close releases the workspace root.
func (r *Recorder) Close() error { return r.root.Close() }

// Begin starts recording turn.
func (r *Recorder) Begin(turn int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.turn, r.open, r.partial = turn, true, false
	r.before, r.order = map[string]session.FileState{}, nil
}

// Touch keeps rel's current state if this is the turn's first write to
// it. A directory's entries are kept too (a rename or removal of the
// whole directory takes them along).
func (r *Recorder) Touch(rel string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.open {
		return
	}
	r.touch(rel, 0)
}

func (r *Recorder) touch(rel string, entries int) int {
	if rel == "." || rel == "" || ignored(rel) {
		return entries
	}
	if _, seen := r.before[rel]; seen {
		return entries
	}
	st, err := stat(r.root, rel, r.keep)
	if err != nil {
		return entries // unreadable: nothing ptc could put back
	}
	r.before[rel] = st
	r.order = append(r.order, rel)
	if st.Kind != session.KindDir {
		return entries + 1
	}
	f, err := r.root.Open(rel)
	if err != nil {
		return entries + 1
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	for _, n := range names {
		if entries >= maxDirEntries {
			r.partial = true
			break
		}
		entries = r.touch(join(rel, n), entries+1)
	}
	return entries
}

// keep stores b when the cap allows.
func (r *Recorder) keep(hash string, b []byte) bool {
	if r.store.Has(hash) {
		return true
	}
	if r.used+int64(len(b)) > r.cap {
		r.partial = true
		return false
	}
	if r.store.Put(hash, b) != nil {
		r.partial = true
		return false
	}
	r.used += int64(len(b))
	return true
}

// End closes the turn and returns its record: every path the turn
// touched whose state changed, before and after (the after bytes kept
// too, for diffs). ok is false when the turn changed nothing.
func (r *Recorder) End() (cp session.Checkpoint, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.open {
		return cp, false
	}
	r.open = false
	cp.Turn = r.turn
	for _, rel := range r.order {
		b := r.before[rel]
		a, err := stat(r.root, rel, r.keep)
		if err != nil {
			continue
		}
		if !same(a, b) {
			cp.Files = append(cp.Files, session.FileChange{Path: rel, Before: b, After: a})
		}
	}
	cp.Partial = r.partial
	r.before, r.order = nil, nil
	return cp, len(cp.Files) > 0
}
