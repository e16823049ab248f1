package rootfs

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// escapes resolves the link at p (inside ws) the way a host tool would
// and reports whether it reaches outside ws. A missing component ends
// the resolution where it is.
func escapes(ws, p string) bool {
	cur, rest := filepath.Dir(p), []string{filepath.Base(p)}
	for hops := 0; len(rest) > 0 && hops < 64; {
		c := rest[0]
		rest = rest[1:]
		next := filepath.Join(cur, c)
		if c == ".." {
			next = filepath.Dir(cur)
		}
		if next != ws && !strings.HasPrefix(next, ws+"/") {
			return true
		}
		info, err := os.Lstat(next)
		if err != nil {
			return false
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		hops++
		t, _ := os.Readlink(next)
		if filepath.IsAbs(t) {
			return true
		}
		rest = append(strings.Split(t, "/"), rest...)
	}
	return false
}

// shipped are the links tree() lays out as a cloned repository could.
var shipped = map[string]bool{"up": true, "abs": true, "dangling": true}

func TestNoLinkTheSandboxMakesResolvesOutside(t *testing.T) {
	type step struct {
		op   func(f *FS) experimentalsys.Errno
		want experimentalsys.Errno
	}
	sym := func(target, link string, want experimentalsys.Errno) step {
		return step{func(f *FS) experimentalsys.Errno { return f.Symlink(target, link) }, want}
	}
	mkdir := func(p string) step {
		return step{func(f *FS) experimentalsys.Errno { return f.Mkdir(p, 0o755) }, 0}
	}
	mv := func(from, to string, want experimentalsys.Errno) step {
		return step{func(f *FS) experimentalsys.Errno { return f.Rename(from, to) }, want}
	}
	ln := func(from, to string, want experimentalsys.Errno) step {
		return step{func(f *FS) experimentalsys.Errno { return f.Link(from, to) }, want}
	}
	perm := experimentalsys.EPERM
	tests := []struct {
		name  string
		steps []step
	}{
		{"a link through a link to the root cannot climb out", []step{sym(".", "a", 0), sym("a/..", "out", perm)}},
		{"nor a chain of them", []step{sym(".", "a", 0), sym("a/a/a/..", "out", perm), sym("a/../..", "out2", perm)}},
		{"a climb after a name is refused even while it resolves inside", []step{mkdir("e"), sym("e/../a.txt", "x", perm)}},
		{"a link through a shipped link that points out is refused", []step{sym("up/secret.txt", "x", perm), sym("up", "y", perm)}},
		{"a link moved to a shallower place is checked there", []step{mkdir("p"), sym("../a.txt", "p/l", 0), mv("p/l", "l", perm), mv("p/l", "d/l", 0)}},
		{"a directory moved to a shallower place has its links checked", []step{mkdir("p"), mkdir("p/q"), sym("../../a.txt", "p/q/l", 0), mv("p/q", "q2", perm)}},
		{"a directory moved deeper keeps its links inside", []step{mkdir("p"), sym("../a.txt", "p/l", 0), mkdir("r"), mv("p", "r/p", 0)}},
		{"a hard link of a link is a link at the new place", []step{sym("../a.txt", "d/l", 0), ln("d/l", "l2", perm), ln("d/l", "d/l3", 0)}},
		{"ordinary links still work", []step{sym("d/b.txt", "x", 0), sym("../a.txt", "d/y", 0), sym("./a.txt", "z", 0), sym("inner", "w", 0), sym("later/file", "v", 0)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, outside := tree(t)
			f := newFS(t, ws, Options{})
			for i, s := range tt.steps {
				if got := s.op(f); got != s.want {
					t.Fatalf("step %d: got %v, want %v", i, got, s.want)
				}
			}
			filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
				rel, _ := filepath.Rel(ws, p)
				if err == nil && d.Type()&fs.ModeSymlink != 0 && !shipped[rel] && escapes(ws, p) {
					t.Errorf("%s resolves outside the workspace", rel)
				}
				return nil
			})
			canaryIntact(t, outside)
		})
	}
}

func TestTheEscapeCheckerSeesAnEscape(t *testing.T) {
	ws, _ := tree(t)
	must(t, os.Symlink(".", filepath.Join(ws, "a")))
	must(t, os.Symlink("a/..", filepath.Join(ws, "out")))
	if !escapes(ws, filepath.Join(ws, "out")) || !escapes(ws, filepath.Join(ws, "up")) || escapes(ws, filepath.Join(ws, "inner")) {
		t.Fatal("the checker is wrong")
	}
}
