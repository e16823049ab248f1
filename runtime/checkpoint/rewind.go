package checkpoint

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Action is one path a rewind puts back: from its state now to Target.
type Action struct {
	Path    string
	Current session.FileState
	Target  session.FileState
}

// Plan is what rewinding to before a turn would do.
type Plan struct {
	ToTurn  int
	Actions []Action
	// Conflicts are paths whose state now is not what ptc last left
	// there: changed by hand (or by another program) since. A rewind
	// would clobber that change.
	Conflicts []string
	// Lost are paths whose state before could not be kept (too large, or
	// past the session's cap): they cannot be put back.
	Lost []string
}

// PlanRewind compares the workspace (root) with the history and says
// what putting it back to before turn toTurn would do: every path a
// turn from toTurn on changed goes back to its state before the first
// of them changed it.
func PlanRewind(h History, root *os.Root, store Store, toTurn int) (Plan, error) {
	p := Plan{ToTurn: toTurn}
	if _, ok := h.Find(toTurn); !ok {
		return p, fmt.Errorf("the session has no turn %d", toTurn)
	}
	targets := map[string]session.FileState{}
	var order []string
	for _, t := range h.Turns {
		if t.Turn < toTurn {
			continue
		}
		for _, f := range t.Files {
			if _, seen := targets[f.Path]; !seen {
				targets[f.Path] = f.Before
				order = append(order, f.Path)
			}
		}
	}
	for _, rel := range order {
		if err := checkPath(rel); err != nil {
			return p, err
		}
		cur, err := stat(root, rel, nil)
		if err != nil {
			return p, fmt.Errorf("%s: %w", rel, err)
		}
		target := targets[rel]
		if same(cur, target) {
			continue
		}
		if last, ok := h.last[rel]; ok && !same(cur, last) {
			p.Conflicts = append(p.Conflicts, rel)
		}
		if target.Kind == session.KindFile && (!target.Kept || !store.Has(target.Hash)) {
			p.Lost = append(p.Lost, rel)
		}
		if target.Kind == session.KindSymlink {
			if err := checkLink(rel, target.Target); err != nil {
				return p, err
			}
		}
		p.Actions = append(p.Actions, Action{Path: rel, Current: cur, Target: target})
	}
	return p, nil
}

// checkPath refuses a recorded path that is not a clean relative path
// inside the workspace or that lies in .git (a damaged or hand-made log).
func checkPath(rel string) error {
	if rel == "" || path.IsAbs(rel) || path.Clean(rel) != rel || rel == ".." || strings.HasPrefix(rel, "../") || ignored(rel) {
		return fmt.Errorf("the log names the path %q, which a checkpoint never holds", rel)
	}
	return nil
}

// checkLink refuses a recorded symlink whose target is absolute or
// leaves the workspace: ptc never made one.
func checkLink(rel, target string) error {
	j := path.Join(path.Dir(rel), target)
	if path.IsAbs(target) || j == ".." || strings.HasPrefix(j, "../") {
		return fmt.Errorf("the log says %s was a symlink to %q, outside the workspace: not restored", rel, target)
	}
	return nil
}

// Apply carries the plan out and returns what it changed (for the
// session/rewind event). Removals go deepest first, creations shallowest
// first; a file is written beside its place and renamed in. Lost paths
// are skipped. On an error the changes made so far are returned with it.
func Apply(p Plan, root *os.Root, store Store) ([]session.FileChange, error) {
	acts := slices.Clone(p.Actions)
	slices.SortStableFunc(acts, func(a, b Action) int { return depth(b.Path) - depth(a.Path) })
	var done []session.FileChange
	for _, a := range acts { // deepest first: clear what is in the way
		sameKind := a.Current.Kind == a.Target.Kind && a.Target.Kind != session.KindSymlink
		if a.Current.Kind == session.KindAbsent || sameKind {
			continue // nothing in the way, or replaced in place
		}
		if slices.Contains(p.Lost, a.Path) {
			continue
		}
		if err := root.RemoveAll(a.Path); err != nil {
			return done, fmt.Errorf("removing %s: %w", a.Path, err)
		}
		if a.Target.Kind == session.KindAbsent {
			done = append(done, session.FileChange{Path: a.Path, Before: a.Current, After: a.Target})
		}
	}
	slices.Reverse(acts) // shallowest first: parents before children
	for _, a := range acts {
		if a.Target.Kind == session.KindAbsent || slices.Contains(p.Lost, a.Path) {
			continue
		}
		if err := put(root, store, a); err != nil {
			return done, fmt.Errorf("restoring %s: %w", a.Path, err)
		}
		done = append(done, session.FileChange{Path: a.Path, Before: a.Current, After: a.Target})
	}
	return done, nil
}

func put(root *os.Root, store Store, a Action) error {
	mode := fs.FileMode(a.Target.Mode).Perm()
	switch a.Target.Kind {
	case session.KindDir:
		if a.Current.Kind == session.KindDir {
			return root.Chmod(a.Path, mode)
		}
		return root.MkdirAll(a.Path, mode|0o700)
	case session.KindSymlink:
		return root.Symlink(a.Target.Target, a.Path)
	case session.KindFile:
		b, err := store.Get(a.Target.Hash)
		if err != nil {
			return err
		}
		return writeFile(root, a.Path, b, mode)
	}
	return fmt.Errorf("unknown kind %q", a.Target.Kind)
}

// writeFile writes b at rel atomically: beside it, then renamed in.
func writeFile(root *os.Root, rel string, b []byte, mode fs.FileMode) error {
	if dir := path.Dir(rel); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := path.Join(path.Dir(rel), ".ptc-rewind-"+hex.EncodeToString(rnd[:]))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		root.Remove(tmp)
		return err
	}
	if err := root.Chmod(tmp, mode); err != nil {
		root.Remove(tmp)
		return err
	}
	if err := root.Rename(tmp, rel); err != nil {
		root.Remove(tmp)
		return err
	}
	return nil
}

func depth(rel string) int { return strings.Count(rel, "/") }
