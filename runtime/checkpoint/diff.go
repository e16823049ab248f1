package checkpoint

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/internal/textdiff"
	"github.com/ptc-dev/ptc/runtime/session"
)

// Net is what a list of turns changed as a whole: for every path, its
// state before the first of them and after the last, in the order paths
// were first changed; paths that ended as they began are left out.
func Net(turns []Turn) []session.FileChange {
	var out []session.FileChange
	at := map[string]int{}
	for _, t := range turns {
		for _, f := range t.Files {
			if i, ok := at[f.Path]; ok {
				out[i].After = f.After
				continue
			}
			at[f.Path] = len(out)
			out = append(out, f)
		}
	}
	kept := out[:0]
	for _, f := range out {
		if !same(f.Before, f.After) {
			kept = append(kept, f)
		}
	}
	return kept
}

// Unified renders changes as a unified diff (3 lines of context), one
// file after another. A file whose bytes were not kept, a binary file,
// a directory or a symlink gets a line saying what changed instead.
func Unified(changes []session.FileChange, store Store) string {
	var b strings.Builder
	for _, c := range changes {
		fmt.Fprintf(&b, "diff --ptc a/%s b/%s\n", c.Path, c.Path)
		old, oerr := content(c.Before, store)
		cur, nerr := content(c.After, store)
		switch {
		case c.Before.Kind != session.KindFile && c.Before.Kind != session.KindAbsent ||
			c.After.Kind != session.KindFile && c.After.Kind != session.KindAbsent:
			fmt.Fprintf(&b, "%s → %s\n", describe(c.Before), describe(c.After))
			continue
		case oerr != nil || nerr != nil:
			fmt.Fprintf(&b, "%s → %s (bytes not kept)\n", describe(c.Before), describe(c.After))
			continue
		case bytes.IndexByte(old, 0) >= 0 || bytes.IndexByte(cur, 0) >= 0:
			fmt.Fprintf(&b, "Binary files differ (%s → %s)\n", describe(c.Before), describe(c.After))
			continue
		}
		from, to := "a/"+c.Path, "b/"+c.Path
		if c.Before.Kind == session.KindAbsent {
			from = "/dev/null"
		}
		if c.After.Kind == session.KindAbsent {
			to = "/dev/null"
		}
		fmt.Fprintf(&b, "--- %s\n+++ %s\n", from, to)
		ops := textdiff.Edits(textdiff.Lines(string(old)), textdiff.Lines(string(cur)), textdiff.DefaultMaxEdits)
		for _, h := range textdiff.Unified(ops, 3) {
			b.WriteString(h.Header() + "\n")
			for _, o := range h.Ops {
				b.WriteString(string(o.Kind) + o.Text + "\n")
			}
		}
		if c.Before.Mode != c.After.Mode && c.Before.Kind == c.After.Kind {
			fmt.Fprintf(&b, "mode %o → %o\n", c.Before.Mode, c.After.Mode)
		}
	}
	return b.String()
}

// content is a state's bytes: empty for an absent file.
func content(st session.FileState, store Store) ([]byte, error) {
	switch st.Kind {
	case session.KindAbsent:
		return nil, nil
	case session.KindFile:
		if !st.Kept {
			return nil, fmt.Errorf("not kept")
		}
		return store.Get(st.Hash)
	}
	return nil, nil
}

// describe is a state in a few words.
func describe(st session.FileState) string {
	switch st.Kind {
	case session.KindFile:
		return fmt.Sprintf("file of %d bytes (sha256 %.12s)", st.Size, st.Hash)
	case session.KindSymlink:
		return "symlink to " + st.Target
	case session.KindDir:
		return "directory"
	}
	return "absent"
}
