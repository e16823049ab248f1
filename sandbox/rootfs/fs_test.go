package rootfs

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"golang.org/x/sys/unix"
)

const (
	rdonly = experimentalsys.O_RDONLY
	wronly = experimentalsys.O_WRONLY
	create = experimentalsys.O_WRONLY | experimentalsys.O_CREAT
	trunc  = experimentalsys.O_WRONLY | experimentalsys.O_TRUNC
	appnd  = experimentalsys.O_WRONLY | experimentalsys.O_APPEND
)

// tree lays out a workspace and a sibling "outside" directory holding a
// canary, and returns both host paths.
func tree(t *testing.T) (ws, outside string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, outside = filepath.Join(base, "ws"), filepath.Join(base, "outside")
	files := map[string]string{
		"ws/a.txt":                 "hello",
		"ws/d/b.txt":               "bee",
		"ws/.git/config":           "[core]",
		"ws/.git/HEAD":             "ref: main",
		"ws/.git/hooks/pre-commit": "#!/bin/sh",
		"ws/secrets/key":           "k",
		"outside/secret.txt":       "CANARY",
	}
	for name, body := range files {
		p := filepath.Join(base, name)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(body), 0o644))
	}
	// Links a cloned repository could ship.
	must(t, os.Symlink("../outside", filepath.Join(ws, "up")))
	must(t, os.Symlink(outside+"/secret.txt", filepath.Join(ws, "abs")))
	must(t, os.Symlink("d/b.txt", filepath.Join(ws, "inner")))
	must(t, os.Symlink(".git/config", filepath.Join(ws, "cfg")))
	must(t, os.Symlink("nowhere/../../outside/new.txt", filepath.Join(ws, "dangling")))
	return ws, outside
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func newFS(t *testing.T, ws string, opts Options) *FS {
	t.Helper()
	f, err := New(ws, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// open opens p and closes the file again, returning only the errno.
func open(f *FS, p string, flag experimentalsys.Oflag) experimentalsys.Errno {
	h, e := f.OpenFile(p, flag, 0o644)
	if e == 0 {
		h.Close()
	}
	return e
}

func canaryIntact(t *testing.T, outside string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(outside, "secret.txt"))
	if err != nil || string(b) != "CANARY" {
		t.Fatalf("outside canary changed: %q %v", b, err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Fatalf("outside directory gained files: %v", entries)
	}
}

func TestPathsThatLeaveTheRootAreRefused(t *testing.T) {
	ws, outside := tree(t)
	f := newFS(t, ws, Options{})
	tests := []struct {
		name string
		op   func() experimentalsys.Errno
		want experimentalsys.Errno
	}{
		{"a plain file opens", func() experimentalsys.Errno { return open(f, "a.txt", rdonly) }, 0},
		{"a leading slash means the root", func() experimentalsys.Errno { return open(f, "/d/b.txt", rdonly) }, 0},
		{"dot-dot inside the root is fine", func() experimentalsys.Errno { return open(f, "d/../a.txt", rdonly) }, 0},
		{"dot-dot above the root is refused", func() experimentalsys.Errno { return open(f, "../outside/secret.txt", rdonly) }, experimentalsys.EPERM},
		{"dot-dot after a slash is refused", func() experimentalsys.Errno { return open(f, "/d/../../outside/secret.txt", rdonly) }, experimentalsys.EPERM},
		{"a relative symlink inside the root is followed", func() experimentalsys.Errno { return open(f, "inner", rdonly) }, 0},
		{"a shipped symlink to a sibling directory is not followed", func() experimentalsys.Errno { return open(f, "up/secret.txt", rdonly) }, experimentalsys.EPERM},
		{"a shipped absolute symlink is not followed", func() experimentalsys.Errno { return open(f, "abs", rdonly) }, experimentalsys.EPERM},
		{"creating through a dangling escaping symlink is refused", func() experimentalsys.Errno { return open(f, "dangling", create) }, experimentalsys.EPERM},
		{"stat through an escaping symlink is refused", func() experimentalsys.Errno { _, e := f.Stat("up/secret.txt"); return e }, experimentalsys.EPERM},
		{"lstat of the link itself works", func() experimentalsys.Errno { _, e := f.Lstat("up"); return e }, 0},
		{"mkdir above the root is refused", func() experimentalsys.Errno { return f.Mkdir("../x", 0o755) }, experimentalsys.EPERM},
		{"rename out of the root is refused", func() experimentalsys.Errno { return f.Rename("a.txt", "../outside/a.txt") }, experimentalsys.EPERM},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.op(); got != tt.want {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
	canaryIntact(t, outside)
}

func TestSymlinkCreationPolicy(t *testing.T) {
	tests := []struct {
		name, target, link string
		opts               Options
		want               experimentalsys.Errno
	}{
		{"a relative target inside the root is allowed", "a.txt", "l1", Options{}, 0},
		{"a target in a subdirectory is allowed", "b.txt", "d/l2", Options{}, 0},
		{"climbing to the root from a subdirectory is allowed", "../a.txt", "d/l3", Options{}, 0},
		{"a dangling target inside the root is allowed", "missing.txt", "l4", Options{}, 0},
		{"an absolute target is refused", "/etc/passwd", "l5", Options{}, experimentalsys.EPERM},
		{"a target leaving the root is refused", "../outside/secret.txt", "l6", Options{}, experimentalsys.EPERM},
		{"a target leaving the root from a subdirectory is refused", "../../outside", "d/l7", Options{}, experimentalsys.EPERM},
		{"an empty target is refused", "", "l8", Options{}, experimentalsys.EPERM},
		{"a target at a protected file is refused", ".git/config", "l9", Options{}, experimentalsys.EPERM},
		{"a target inside a protected tree is refused", ".git/hooks/pre-commit", "l10", Options{}, experimentalsys.EPERM},
		{"with nothing protected .git/config is a fine target", ".git/config", "l11", Options{Protected: []string{}}, 0},
		{"read-only refuses every symlink", "a.txt", "l12", Options{ReadOnly: true}, experimentalsys.EROFS},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, outside := tree(t)
			f := newFS(t, ws, tt.opts)
			if got := f.Symlink(tt.target, tt.link); got != tt.want {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			_, err := os.Lstat(filepath.Join(ws, tt.link))
			if created := err == nil; created != (tt.want == 0) {
				t.Fatalf("link exists = %v after errno %v", created, tt.want)
			}
			canaryIntact(t, outside)
		})
	}
}

func TestHardLinksStayInsideAndCannotCopyProtection(t *testing.T) {
	ws, _ := tree(t)
	f := newFS(t, ws, Options{})
	if e := f.Link("a.txt", "a2.txt"); e != 0 {
		t.Fatalf("link inside the root: %v", e)
	}
	if e := f.Link("a.txt", "../outside/a.txt"); e != experimentalsys.EPERM {
		t.Fatalf("link out of the root: got %v, want EPERM", e)
	}
	if e := f.Link(".git/config", "cfg2"); e != experimentalsys.EACCES {
		t.Fatalf("link of a protected file: got %v, want EACCES", e)
	}
}

func TestProtectedPathsRefuseMutation(t *testing.T) {
	type op struct {
		name string
		do   func(f *FS) experimentalsys.Errno
		want experimentalsys.Errno
	}
	defaults := []op{
		{".git/config opens for reading", func(f *FS) experimentalsys.Errno { return open(f, ".git/config", rdonly) }, 0},
		{".git/config refuses writing", func(f *FS) experimentalsys.Errno { return open(f, ".git/config", wronly) }, experimentalsys.EACCES},
		{".git/config refuses truncation", func(f *FS) experimentalsys.Errno { return open(f, ".git/config", trunc) }, experimentalsys.EACCES},
		{".git/config refuses appending", func(f *FS) experimentalsys.Errno { return open(f, ".git/config", appnd) }, experimentalsys.EACCES},
		{"a symlink to .git/config refuses writing", func(f *FS) experimentalsys.Errno { return open(f, "cfg", wronly) }, experimentalsys.EACCES},
		{"a path spelled with dot-dot is still protected", func(f *FS) experimentalsys.Errno { return open(f, "d/../.git/config", wronly) }, experimentalsys.EACCES},
		{"a new hook cannot be created", func(f *FS) experimentalsys.Errno { return open(f, ".git/hooks/post-checkout", create) }, experimentalsys.EACCES},
		{"a hook cannot be removed", func(f *FS) experimentalsys.Errno { return f.Unlink(".git/hooks/pre-commit") }, experimentalsys.EACCES},
		{"a hook cannot be made executable", func(f *FS) experimentalsys.Errno { return f.Chmod(".git/hooks/pre-commit", 0o755) }, experimentalsys.EACCES},
		{"the hooks directory cannot be renamed away", func(f *FS) experimentalsys.Errno { return f.Rename(".git/hooks", "h") }, experimentalsys.EACCES},
		{"nothing can be renamed onto .git/config", func(f *FS) experimentalsys.Errno { return f.Rename("a.txt", ".git/config") }, experimentalsys.EACCES},
		{".git itself cannot be renamed (it holds protected paths)", func(f *FS) experimentalsys.Errno { return f.Rename(".git", "g") }, experimentalsys.EACCES},
		{"a subdirectory of hooks cannot be made", func(f *FS) experimentalsys.Errno { return f.Mkdir(".git/hooks/x", 0o755) }, experimentalsys.EACCES},
		{"every other .git file refuses writing too", func(f *FS) experimentalsys.Errno { return open(f, ".git/HEAD", wronly) }, experimentalsys.EACCES},
		{"a nested .git cannot be created", func(f *FS) experimentalsys.Errno { return f.Mkdir("d/.git", 0o755) }, experimentalsys.EACCES},
		{"a gitdir file cannot be created", func(f *FS) experimentalsys.Errno { return open(f, "d/.git", create) }, experimentalsys.EACCES},
		{"nothing can be renamed to .git", func(f *FS) experimentalsys.Errno { return f.Rename("a.txt", "d/.git") }, experimentalsys.EACCES},
		{"a symlink cannot be named .git", func(f *FS) experimentalsys.Errno { return f.Symlink("d", "d/.git") }, experimentalsys.EACCES},
		{"a hard link cannot be named .git", func(f *FS) experimentalsys.Errno { return f.Link("a.txt", "d/.git") }, experimentalsys.EACCES},
		{"ptc's project directory cannot be created", func(f *FS) experimentalsys.Errno { return f.Mkdir(".ptc", 0o755) }, experimentalsys.EACCES},
		{"a project MCP file cannot be created", func(f *FS) experimentalsys.Errno { return open(f, ".mcp.json", create) }, experimentalsys.EACCES},
		{"a directory holding a nested .git can still be renamed", func(f *FS) experimentalsys.Errno { return f.Rename("d", "d2") }, 0},
		{"ordinary files stay writable", func(f *FS) experimentalsys.Errno { return open(f, "a.txt", wronly) }, 0},
	}
	custom := []op{
		{"a custom tree is protected", func(f *FS) experimentalsys.Errno { return open(f, "secrets/key", wronly) }, experimentalsys.EACCES},
		{"a custom exact path is protected", func(f *FS) experimentalsys.Errno { return open(f, "a.txt", trunc) }, experimentalsys.EACCES},
		{"the defaults no longer apply", func(f *FS) experimentalsys.Errno { return open(f, ".git/config", wronly) }, 0},
	}
	none := []op{
		{"nothing is protected", func(f *FS) experimentalsys.Errno { return open(f, ".git/hooks/pre-commit", wronly) }, 0},
	}
	for _, group := range []struct {
		protected []string
		ops       []op
	}{{nil, defaults}, {[]string{"secrets/**", "a.txt"}, custom}, {[]string{}, none}} {
		for _, tt := range group.ops {
			t.Run(tt.name, func(t *testing.T) {
				ws, _ := tree(t)
				f := newFS(t, ws, Options{Protected: group.protected})
				if got := tt.do(f); got != tt.want {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
			})
		}
	}
}

func TestReadOnlyRefusesEveryMutation(t *testing.T) {
	ws, _ := tree(t)
	f := newFS(t, ws, Options{ReadOnly: true})
	tests := []struct {
		name string
		do   func() experimentalsys.Errno
	}{
		{"open for writing", func() experimentalsys.Errno { return open(f, "a.txt", wronly) }},
		{"open for read-write", func() experimentalsys.Errno { return open(f, "a.txt", experimentalsys.O_RDWR) }},
		{"create", func() experimentalsys.Errno { return open(f, "new.txt", create) }},
		{"truncate on open", func() experimentalsys.Errno { return open(f, "a.txt", trunc) }},
		{"append", func() experimentalsys.Errno { return open(f, "a.txt", appnd) }},
		{"mkdir", func() experimentalsys.Errno { return f.Mkdir("nd", 0o755) }},
		{"rmdir", func() experimentalsys.Errno { return f.Rmdir("d") }},
		{"unlink", func() experimentalsys.Errno { return f.Unlink("a.txt") }},
		{"rename", func() experimentalsys.Errno { return f.Rename("a.txt", "z.txt") }},
		{"chmod", func() experimentalsys.Errno { return f.Chmod("a.txt", 0o600) }},
		{"utimens", func() experimentalsys.Errno { return f.Utimens("a.txt", 0, 0) }},
		{"link", func() experimentalsys.Errno { return f.Link("a.txt", "a2.txt") }},
		{"symlink", func() experimentalsys.Errno { return f.Symlink("a.txt", "l") }},
		{"utimens on an open file", func() experimentalsys.Errno {
			h, e := f.OpenFile("a.txt", rdonly, 0)
			if e != 0 {
				return e
			}
			defer h.Close()
			return h.Utimens(0, 0)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name+" fails with EROFS", func(t *testing.T) {
			if got := tt.do(); got != experimentalsys.EROFS {
				t.Fatalf("got %v, want EROFS", got)
			}
		})
	}
	t.Run("reading still works", func(t *testing.T) {
		h, e := f.OpenFile("a.txt", rdonly, 0)
		if e != 0 {
			t.Fatal(e)
		}
		defer h.Close()
		buf := make([]byte, 16)
		if n, e := h.Read(buf); e != 0 || string(buf[:n]) != "hello" {
			t.Fatalf("read %q %v", buf[:n], e)
		}
	})
	entries, _ := os.ReadDir(ws)
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "hello" || len(entries) != 9 {
		t.Fatalf("the workspace changed: a.txt=%q, %d entries", b, len(entries))
	}
}

func TestQuotaBoundsBytesWrittenAcrossFileSystems(t *testing.T) {
	ws, _ := tree(t)
	q := NewQuota(10)
	f1 := newFS(t, ws, Options{Quota: q})
	f2 := newFS(t, ws, Options{Quota: q})
	write := func(f *FS, name, data string) experimentalsys.Errno {
		h, e := f.OpenFile(name, create|experimentalsys.O_APPEND, 0o644)
		if e != 0 {
			return e
		}
		defer h.Close()
		_, e = h.Write([]byte(data))
		return e
	}
	steps := []struct {
		name string
		do   func() experimentalsys.Errno
		want experimentalsys.Errno
		used int64
	}{
		{"a write within the budget succeeds", func() experimentalsys.Errno { return write(f1, "q.txt", "12345678") }, 0, 8},
		{"a write past the budget fails whole", func() experimentalsys.Errno { return write(f2, "q.txt", "abc") }, experimentalsys.EIO, 8},
		{"a write that fits exactly succeeds", func() experimentalsys.Errno { return write(f2, "q.txt", "ab") }, 0, 10},
		{"growing a file by truncate is charged", func() experimentalsys.Errno {
			h, e := f1.OpenFile("q.txt", wronly, 0)
			if e != 0 {
				return e
			}
			defer h.Close()
			return h.Truncate(64)
		}, experimentalsys.EIO, 10},
		{"shrinking gives the bytes back", func() experimentalsys.Errno {
			h, e := f1.OpenFile("q.txt", wronly, 0)
			if e != 0 {
				return e
			}
			defer h.Close()
			return h.Truncate(4)
		}, 0, 4},
		{"overwriting bytes the file has is free", func() experimentalsys.Errno {
			h, e := f2.OpenFile("q.txt", experimentalsys.O_RDWR, 0)
			if e != 0 {
				return e
			}
			defer h.Close()
			_, e = h.Write([]byte("wxyz"))
			return e
		}, 0, 4},
		{"removing a file gives its bytes back", func() experimentalsys.Errno {
			if e := write(f1, "r.txt", "123456"); e != 0 {
				return e
			}
			return f1.Unlink("r.txt")
		}, 0, 4},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if got := st.do(); got != st.want {
				t.Fatalf("got %v, want %v", got, st.want)
			}
			if q.Used() != st.used {
				t.Fatalf("used %d, want %d", q.Used(), st.used)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "q.txt")); string(b) != "wxyz" {
		t.Fatalf("q.txt = %q", b)
	}
	if (*Quota)(nil).Used() != 0 || !(*Quota)(nil).charge(1<<40) {
		t.Fatal("a nil quota must be unlimited")
	}
}

func TestOpenFilesAreCappedPerFS(t *testing.T) {
	ws, _ := tree(t)
	f := newFS(t, ws, Options{MaxOpen: 3})
	var open []experimentalsys.File
	for i := range 3 {
		h, e := f.OpenFile("a.txt", rdonly, 0)
		if e != 0 {
			t.Fatalf("open %d: %v", i, e)
		}
		open = append(open, h)
	}
	if _, e := f.OpenFile("a.txt", rdonly, 0); e != experimentalsys.EAGAIN {
		t.Fatalf("open past the cap: got %v, want EAGAIN", e)
	}
	if _, e := f.OpenFile("missing", rdonly, 0); e != experimentalsys.EAGAIN {
		t.Fatalf("the cap applies before the lookup: got %v", e)
	}
	if other := newFS(t, ws, Options{MaxOpen: 3}); open3(other) != 0 {
		t.Fatal("another FS has its own count")
	}
	open[0].Close()
	open[0].Close() // a second close must not free a second slot
	if f.OpenFiles() != 2 {
		t.Fatalf("OpenFiles = %d after one close, want 2", f.OpenFiles())
	}
	h, e := f.OpenFile("a.txt", rdonly, 0)
	if e != 0 {
		t.Fatalf("open after a close: %v", e)
	}
	h.Close()
	if _, e := f.OpenFile("missing", rdonly, 0); e != experimentalsys.ENOENT || f.OpenFiles() != 2 {
		t.Fatalf("a failed open must give its slot back: %v, %d open", e, f.OpenFiles())
	}
	for _, h := range open[1:] {
		h.Close()
	}
}

// open3 opens three files on f and closes them again.
func open3(f *FS) experimentalsys.Errno {
	var hs []experimentalsys.File
	defer func() {
		for _, h := range hs {
			h.Close()
		}
	}()
	for range 3 {
		h, e := f.OpenFile("a.txt", rdonly, 0)
		if e != 0 {
			return e
		}
		hs = append(hs, h)
	}
	return 0
}

func TestOnlyRegularFilesAndDirectoriesOpen(t *testing.T) {
	ws, _ := tree(t)
	must(t, unix.Mkfifo(filepath.Join(ws, "fifo"), 0o644))
	l, err := net.Listen("unix", filepath.Join(ws, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	f := newFS(t, ws, Options{})
	tests := []struct {
		name string
		path string
		flag experimentalsys.Oflag
		want experimentalsys.Errno
	}{
		{"a regular file opens", "a.txt", rdonly, 0},
		{"a directory opens", "d", rdonly, 0},
		{"a directory opens with O_DIRECTORY", "d", experimentalsys.O_DIRECTORY, 0},
		{"a directory refuses writing", "d", wronly, experimentalsys.EISDIR},
		{"a FIFO fails at once instead of blocking", "fifo", rdonly, experimentalsys.EACCES},
		{"a FIFO fails for writing too (no reader, no hang)", "fifo", wronly, experimentalsys.EACCES},
		{"a socket is refused", "sock", rdonly, experimentalsys.EACCES},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := open(f, tt.path, tt.flag); got != tt.want {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			if f.OpenFiles() != 0 {
				t.Fatalf("%d files left open", f.OpenFiles())
			}
		})
	}
	t.Run("a device file is refused", func(t *testing.T) {
		if err := unix.Mknod(filepath.Join(ws, "null"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
			t.Skipf("cannot make a device node here: %v", err)
		}
		if got := open(f, "null", rdonly); got != experimentalsys.EACCES {
			t.Fatalf("got %v, want EACCES", got)
		}
	})
}

func TestSetAppendSwitchesTheOpenDescriptor(t *testing.T) {
	ws, outside := tree(t)
	f := newFS(t, ws, Options{})
	h, e := f.OpenFile("a.txt", experimentalsys.O_RDWR, 0)
	if e != 0 {
		t.Fatal(e)
	}
	defer h.Close()
	if e := h.SetAppend(true); e != 0 || !h.IsAppend() {
		t.Fatalf("SetAppend: %v", e)
	}
	// Swapping the path for a symlink afterwards must not matter: the
	// descriptor is changed in place, never re-opened by name.
	must(t, os.Rename(filepath.Join(ws, "a.txt"), filepath.Join(ws, "a.old")))
	must(t, os.Symlink("../outside/secret.txt", filepath.Join(ws, "a.txt")))
	if _, e := h.Write([]byte("!")); e != 0 {
		t.Fatal(e)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.old")); string(b) != "hello!" {
		t.Fatalf("a.old = %q", b)
	}
	canaryIntact(t, outside)
}

// listing returns the names in each directory, for before/after checks.
func listing(t *testing.T, ws string, dirs ...string) string {
	t.Helper()
	var out []string
	for _, d := range dirs {
		entries, _ := os.ReadDir(filepath.Join(ws, d))
		for _, e := range entries {
			out = append(out, d+"/"+e.Name())
		}
	}
	return strings.Join(out, " ")
}

func TestASwapRaceNeverWritesAProtectedPath(t *testing.T) {
	// Per target: 5 000 rounds of three mutations each against a path
	// flipping between missing, a real directory and a symlink.
	const rounds = 5000
	for _, target := range []string{".git", ".git/hooks", "d/.git"} {
		t.Run("a directory flipping to a symlink to "+target, func(t *testing.T) {
			ws, outside := tree(t)
			must(t, os.MkdirAll(filepath.Join(ws, "d", ".git"), 0o755))
			must(t, os.WriteFile(filepath.Join(ws, "d", ".git", "config"), []byte("[core]"), 0o644))
			protectedDirs := []string{".git", ".git/hooks", "d/.git"}
			before := listing(t, ws, protectedDirs...)
			f := newFS(t, ws, Options{})
			x := filepath.Join(ws, "x")
			done := make(chan struct{})
			go func() {
				defer close(done)
				for i := 0; i < rounds; i++ {
					_ = os.Symlink(target, x)
					_ = os.Remove(x)
					_ = os.Mkdir(x, 0o755)
					_ = os.RemoveAll(x)
				}
			}()
			wrote := 0
			for i := 0; i < rounds; i++ {
				if h, e := f.OpenFile("x/config", create|experimentalsys.O_TRUNC, 0o644); e == 0 {
					h.Write([]byte("RACED"))
					h.Close()
					wrote++
				}
				_ = f.Mkdir("x/hooks", 0o755)
				// A fresh source each round (the host side never touches x:
				// a host rename through x would follow the flipped link).
				must(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o644))
				_ = f.Rename("a.txt", "x/pre-commit")
			}
			<-done
			t.Logf("%d writes landed in the real directory", wrote)
			for _, p := range []string{".git/config", "d/.git/config"} {
				if b, _ := os.ReadFile(filepath.Join(ws, p)); string(b) != "[core]" {
					t.Fatalf("%s was written: %q", p, b)
				}
			}
			if after := listing(t, ws, protectedDirs...); after != before {
				t.Fatalf("protected directories changed:\n%s\n%s", before, after)
			}
			canaryIntact(t, outside)
		})
	}
}

func TestAGitdirFileProtectsTheDirectoryItNames(t *testing.T) {
	ws, _ := tree(t)
	must(t, os.RemoveAll(filepath.Join(ws, ".git")))
	must(t, os.MkdirAll(filepath.Join(ws, "store", "hooks"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, ".git"), []byte("gitdir: store\n"), 0o644))
	must(t, os.Symlink("store", filepath.Join(ws, "alias")))
	f := newFS(t, ws, Options{})
	tests := []struct {
		name string
		do   func() experimentalsys.Errno
		want experimentalsys.Errno
	}{
		{"the gitdir file itself is protected", func() experimentalsys.Errno { return open(f, ".git", wronly) }, experimentalsys.EACCES},
		{"the directory it names is protected", func() experimentalsys.Errno { return open(f, "store/config", create) }, experimentalsys.EACCES},
		{"also through a symlink to it", func() experimentalsys.Errno { return open(f, "alias/hooks/post-checkout", create) }, experimentalsys.EACCES},
		{"and it cannot be renamed away", func() experimentalsys.Errno { return f.Rename("store", "elsewhere") }, experimentalsys.EACCES},
		{"other files are writable", func() experimentalsys.Errno { return open(f, "a.txt", wronly) }, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.do(); got != tt.want {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestGitWriteOpensOnlyGitsOwnData(t *testing.T) {
	tests := []struct {
		path string
		want experimentalsys.Errno
	}{
		{".git/HEAD", 0},
		{".git/index", 0},
		{".git/ORIG_HEAD", 0},
		{".git/config", experimentalsys.EACCES},
		{".git/hooks/pre-commit", experimentalsys.EACCES},
		{".git/commondir", experimentalsys.EACCES},
		{".git/modules/sub/config", experimentalsys.EACCES},
		{"d/.git", experimentalsys.EACCES},
		{".ptc", experimentalsys.EACCES},
	}
	ws, _ := tree(t)
	must(t, os.MkdirAll(filepath.Join(ws, ".git", "modules", "sub"), 0o755))
	f := newFS(t, ws, Options{GitWrite: true})
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := open(f, tt.path, create); got != tt.want {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
	if e := f.Rename(".git", "g"); e != experimentalsys.EACCES {
		t.Fatalf("renaming .git itself: got %v", e)
	}
}

// deepTree makes a chain of depth directories named "d" under ws and
// returns the root-relative path of the deepest. It goes by descriptors:
// the path is longer than PATH_MAX.
func deepTree(tb testing.TB, ws string, depth int) string {
	return deepTreeOf(tb, ws, depth, "d")
}

// deepTreeOf is deepTree with directories called name.
func deepTreeOf(tb testing.TB, ws string, depth int, name string) string {
	tb.Helper()
	fd, err := unix.Open(ws, unix.O_PATH|unix.O_DIRECTORY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	for i := 0; i < depth; i++ {
		if err := unix.Mkdirat(fd, name, 0o755); err != nil && err != unix.EEXIST {
			tb.Fatal(err)
		}
		next, err := unix.Openat(fd, name, unix.O_PATH|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		if err != nil {
			tb.Fatal(err)
		}
		fd = next
	}
	unix.Close(fd)
	return strings.TrimSuffix(strings.Repeat(name+"/", depth), "/")
}

func TestPathsDeeperThanPathMaxResolve(t *testing.T) {
	// 320 levels of 16-byte names: 5 440 bytes, past PATH_MAX (4 096)
	// and past several of the cache's sparse steps. (A 5 000-level chain
	// of one-byte names made the same point in seconds of ext4 mkdirs and
	// RemoveAll, past 10 s on a busy machine.)
	const depth, name = 320, "dddddddddddddddd"
	ws, _ := tree(t)
	p := deepTreeOf(t, ws, depth, name)
	if len(p) <= unix.PathMax {
		t.Fatalf("the path is only %d bytes", len(p))
	}
	f := newFS(t, ws, Options{})
	h, e := f.OpenFile(p+"/leaf.txt", create, 0o644)
	if e != 0 {
		t.Fatalf("create at depth %d: %v", depth, e)
	}
	h.Close()
	if _, e := f.Stat(p + "/leaf.txt"); e != 0 {
		t.Fatalf("stat at depth %d: %v", depth, e)
	}
	if e := f.Mkdir(p+"/.git", 0o755); e != experimentalsys.EACCES {
		t.Fatalf("a .git at depth %d: got %v, want EACCES", depth, e)
	}
}

// BenchmarkStatAtDepth shows the cost of one path op as the path gets
// deeper: openat2 walks a run of components in one call, so the cost
// grows slowly, and a walk of a deep tree stays close to linear.
func BenchmarkStatAtDepth(b *testing.B) {
	for _, depth := range []int{1, 100, 1000, 4000} {
		b.Run(strconv.Itoa(depth), func(b *testing.B) {
			ws := b.TempDir()
			p := deepTree(b, ws, depth)
			f, err := New(ws, Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			for b.Loop() {
				if _, e := f.Stat(p); e != 0 {
					b.Fatal(e)
				}
			}
		})
	}
}

func TestABindMountOfAProtectedDirectoryIsProtectedByIdentity(t *testing.T) {
	ws, _ := tree(t)
	alias := filepath.Join(ws, "alias")
	must(t, os.Mkdir(alias, 0o755))
	if err := unix.Mount(filepath.Join(ws, ".git"), alias, "", unix.MS_BIND, ""); err != nil {
		t.Skipf("cannot bind-mount here (needs root): %v", err)
	}
	defer unix.Unmount(alias, unix.MNT_DETACH)
	f := newFS(t, ws, Options{})
	for _, p := range []string{"alias/config", "alias/hooks/post-checkout", "alias/new"} {
		if e := open(f, p, create); e != experimentalsys.EACCES {
			t.Errorf("%s through the bind mount: got %v, want EACCES", p, e)
		}
	}
	if e := open(f, "alias/config", rdonly); e != 0 {
		t.Errorf("reading through the bind mount: %v", e)
	}
}
