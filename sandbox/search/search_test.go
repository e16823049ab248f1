package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/memfs"
	"github.com/ptc-dev/ptc/sandbox/proto"
	"github.com/ptc-dev/ptc/sandbox/rootfs"
)

func writeFile(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mountsOf mounts dir (read-only, through rootfs) and an empty /tmp.
func mountsOf(t testing.TB, dir string) []Mount {
	t.Helper()
	fs, err := rootfs.New(dir, rootfs.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	return []Mount{{Dir: dir, FS: fs}, {Dir: "/tmp", FS: memfs.New(0, 0)}}
}

func tempDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func grep(t *testing.T, mounts []Mount, req proto.FileRequest) proto.FileResponse {
	t.Helper()
	r, err := Grep(context.Background(), mounts, &req)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func glob(t *testing.T, mounts []Mount, req proto.FileRequest) proto.FileResponse {
	t.Helper()
	r, err := Glob(context.Background(), mounts, &req)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func rels(dir string, ms []proto.Match) string {
	var got []string
	for _, m := range ms {
		rel, _ := filepath.Rel(dir, m.Path)
		got = append(got, fmt.Sprintf("%s:%d", rel, m.Line))
	}
	return strings.Join(got, " ")
}

func TestGlobAndGrep(t *testing.T) {
	dir := tempDir(t)
	files := map[string]string{"a.go": "package a\nfunc A() {}\n", "sub/b.go": "package b\nfunc B() {}\n", "sub/c.txt": "func in text\n",
		".git/x.go": "func Hidden\n", "node_modules/m/y.go": "func Dep\n", "bin.go": "func\x00"}
	for name, content := range files {
		writeFile(t, filepath.Join(dir, name), content)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "a.go"), old, old)
	m := mountsOf(t, dir)
	t.Run("glob finds go files at any depth, newest first", func(t *testing.T) {
		r := glob(t, m, proto.FileRequest{Path: dir, Pattern: "**/*.go"})
		if r.Total != 3 || filepath.Base(r.Paths[len(r.Paths)-1].Path) != "a.go" || r.Paths[0].Size == 0 {
			t.Errorf("%+v", r.Paths)
		}
	})
	t.Run("glob caps results and keeps the total", func(t *testing.T) {
		r := glob(t, m, proto.FileRequest{Path: dir, Pattern: "*.go", MaxResults: 1})
		if r.Total != 3 || len(r.Paths) != 1 || !r.Truncated {
			t.Errorf("%+v", r)
		}
	})
	t.Run("glob with a directory matches paths relative to the search root", func(t *testing.T) {
		r := glob(t, m, proto.FileRequest{Path: filepath.Join(dir, "sub"), Pattern: "b.*"})
		if r.Total != 1 || r.Paths[0].Path != filepath.Join(dir, "sub", "b.go") {
			t.Errorf("%+v", r)
		}
	})
	t.Run("grep finds matches in path order and skips binary, .git and node_modules", func(t *testing.T) {
		r := grep(t, m, proto.FileRequest{Path: dir, Pattern: `^func \w`})
		if got := rels(dir, r.Matches); got != "a.go:2 sub/b.go:2 sub/c.txt:1" {
			t.Errorf("%v", got)
		}
	})
	t.Run("grep include filters by file glob", func(t *testing.T) {
		r := grep(t, m, proto.FileRequest{Path: dir, Pattern: "FUNC", IgnoreCase: true, Include: "*.txt"})
		if r.Total != 1 || len(r.Matches) != 1 {
			t.Errorf("%+v", r)
		}
	})
	t.Run("grep caps matches and keeps the total", func(t *testing.T) {
		r := grep(t, m, proto.FileRequest{Path: dir, Pattern: "func", MaxResults: 2})
		if r.Total != 3 || len(r.Matches) != 2 || !r.Truncated {
			t.Errorf("%+v", r)
		}
	})
	t.Run("grep of one file", func(t *testing.T) {
		r := grep(t, m, proto.FileRequest{Path: filepath.Join(dir, "sub", "c.txt"), Pattern: "text", Include: "*.txt"})
		if r.Total != 1 {
			t.Errorf("%+v", r)
		}
	})
	for _, tt := range []struct{ name, pattern, code string }{
		{"a bad regex is invalid", "(", proto.ErrInvalid},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if r := grep(t, m, proto.FileRequest{Path: dir, Pattern: tt.pattern}); r.Error == nil || r.Error.Code != tt.code {
				t.Errorf("%+v", r.Error)
			}
		})
	}
	t.Run("a bad glob is invalid", func(t *testing.T) {
		if r := glob(t, m, proto.FileRequest{Path: dir, Pattern: "[a"}); r.Error == nil || r.Error.Code != proto.ErrInvalid {
			t.Errorf("%+v", r.Error)
		}
	})
}

func TestPathsOutsideTheMountsAndMissingOnes(t *testing.T) {
	dir := tempDir(t)
	m := mountsOf(t, dir)
	for _, tt := range []struct{ name, path, code string }{
		{"a path outside every mount is not found and says so", "/etc", proto.ErrNotFound},
		{"a missing path is not found", filepath.Join(dir, "missing"), proto.ErrNotFound},
		{"a climb out of the workspace lands outside it", dir + "/../../../..", proto.ErrNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := grep(t, m, proto.FileRequest{Path: tt.path, Pattern: "x"})
			if r.Error == nil || r.Error.Code != tt.code {
				t.Fatalf("%+v", r)
			}
			if tt.path == "/etc" && !strings.Contains(r.Error.Message, "outside the sandbox") {
				t.Errorf("message %q", r.Error.Message)
			}
		})
	}
	t.Run("the private /tmp is empty", func(t *testing.T) {
		if r := glob(t, m, proto.FileRequest{Path: "/tmp", Pattern: "*"}); r.Error != nil || r.Total != 0 {
			t.Errorf("%+v", r)
		}
	})
}

func TestHostileTrees(t *testing.T) {
	base := tempDir(t)
	dir, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	writeFile(t, filepath.Join(outside, "secret.txt"), "CANARY\n")
	writeFile(t, filepath.Join(dir, "ok.txt"), "CANARY is a word here\n")
	if err := os.Symlink(outside, filepath.Join(dir, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "secret-link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := mountsOf(t, dir)
	t.Run("symlinks and FIFOs are neither followed nor opened", func(t *testing.T) {
		r := grep(t, m, proto.FileRequest{Path: dir, Pattern: "CANARY"})
		if got := rels(dir, r.Matches); got != "ok.txt:1" {
			t.Errorf("matches %q", got)
		}
		if g := glob(t, m, proto.FileRequest{Path: dir, Pattern: "*.txt"}); g.Total != 1 {
			t.Errorf("glob %+v", g.Paths)
		}
	})
	t.Run("a search rooted at an escaping symlink fails", func(t *testing.T) {
		if r := grep(t, m, proto.FileRequest{Path: filepath.Join(dir, "escape"), Pattern: "CANARY"}); r.Error == nil || len(r.Matches) != 0 {
			t.Errorf("%+v", r)
		}
	})
	t.Run("a search stops when its context ends", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Grep(ctx, m, &proto.FileRequest{Path: dir, Pattern: "x"}); err == nil {
			t.Error("no error from a cancelled search")
		}
	})
}

func TestLinesAcrossReadBuffers(t *testing.T) {
	dir := tempDir(t)
	var b strings.Builder
	want := []string{}
	for i := 1; b.Len() < 3*readSize; i++ {
		if i%997 == 0 {
			fmt.Fprintf(&b, "line %d has the NEEDLE\r\n", i)
			want = append(want, fmt.Sprintf("big.txt:%d", i))
			continue
		}
		fmt.Fprintf(&b, "line %d is filler text\n", i)
	}
	b.WriteString("the last line has no newline, NEEDLE")
	writeFile(t, filepath.Join(dir, "big.txt"), b.String())
	r := grep(t, mountsOf(t, dir), proto.FileRequest{Path: dir, Pattern: "NEEDLE$"})
	lines := strings.Count(b.String(), "\n") + 1
	want = append(want, fmt.Sprintf("big.txt:%d", lines))
	if got := rels(dir, r.Matches); got != strings.Join(want, " ") {
		t.Errorf("got %s\nwant %s", got, strings.Join(want, " "))
	}
	if r.Matches[0].Text != "line 997 has the NEEDLE" {
		t.Errorf("text %q (the CR should go)", r.Matches[0].Text)
	}
}

func TestAnOverlongLineIsSearchedInItsFirstPart(t *testing.T) {
	dir := tempDir(t)
	long := "START" + strings.Repeat("x", maxLine+10) + "END\n"
	writeFile(t, filepath.Join(dir, "long.txt"), long+"after END\n")
	r := grep(t, mountsOf(t, dir), proto.FileRequest{Path: dir, Pattern: "START|END"})
	if got := rels(dir, r.Matches); got != "long.txt:1 long.txt:2" {
		t.Errorf("matches %s", got)
	}
	if !strings.HasSuffix(r.Matches[0].Text, "… [line truncated]") {
		t.Errorf("the long line is not cut")
	}
}

// lineByLine is the reference: the expression run on each line alone.
func lineByLine(re *regexp.Regexp, content string) []int {
	var lines []int
	body := strings.TrimSuffix(content, "\n")
	if body == "" && content == "" {
		return nil
	}
	for i, l := range strings.Split(body, "\n") {
		if re.MatchString(strings.TrimSuffix(l, "\r")) {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// FuzzGrepMatchesLineByLine checks the whole-buffer prefilter against
// the expression run on every line by itself.
func FuzzGrepMatchesLineByLine(f *testing.F) {
	for _, s := range [][2]string{
		{`^a`, "a\nba\na"}, {`a$`, "xa\nab\r\na"}, {`\Aa`, "a\nab"}, {`a\z`, "ba\nca"}, {`a[^x]*b`, "a\n b\nab"},
		{`\bfoo\b`, "foo\nafoo\nfoo bar"}, {`a$`, "xa\r\nb"}, {`a\r$`, "a\r\r\n"}, {`(?i)TODO`, "todo\nx"}, {`^$`, "\n\nx\n"}, {`a\nb`, "a\nb"}, {`.*`, ""},
	} {
		f.Add(s[0], s[1])
	}
	dir := tempDir(f)
	m := mountsOf(f, dir)
	f.Fuzz(func(t *testing.T, pattern, content string) {
		re, err := regexp.Compile(pattern)
		if err != nil || strings.ContainsRune(content, 0) {
			return
		}
		p := filepath.Join(dir, "f.txt")
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := Grep(context.Background(), m, &proto.FileRequest{Path: p, Pattern: pattern, MaxResults: 1 << 20})
		if err != nil || r.Error != nil {
			t.Fatalf("%v %+v", err, r.Error)
		}
		var got []int
		for _, x := range r.Matches {
			got = append(got, x.Line)
		}
		if want := lineByLine(re, content); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("pattern %q on %q: lines %v, line by line %v", pattern, content, got, want)
		}
	})
}

func TestMatcher(t *testing.T) {
	tests := []struct {
		pattern, rel string
		want         bool
	}{
		{"**/*.go", "a.go", true},
		{"**/*.go", "x/y/a.go", true},
		{"x/**/a.go", "x/a.go", true},
		{"x/*.go", "x/y/a.go", false},
		{"*.go", "x/a.go", true},
		{"x/*.go", "a.go", false},
	}
	for _, tt := range tests {
		m, err := NewMatcher(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Match(tt.rel); got != tt.want {
			t.Errorf("Match(%q, %q) = %v", tt.pattern, tt.rel, got)
		}
	}
}

func TestGlobKeepsTheNewestOfManyMatches(t *testing.T) {
	dir := tempDir(t)
	base := time.Now().Add(-time.Hour)
	const n = 3000
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("d%02d", i%30), fmt.Sprintf("f%04d.txt", i))
		writeFile(t, p, "x")
		when := base.Add(time.Duration((i*7919)%n) * time.Second) // shuffled times
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
	r := glob(t, mountsOf(t, dir), proto.FileRequest{Path: dir, Pattern: "*.txt", MaxResults: 10})
	if r.Total != n || len(r.Paths) != 10 || !r.Truncated {
		t.Fatalf("total %d, %d paths, truncated %v", r.Total, len(r.Paths), r.Truncated)
	}
	newest := base.Add((n - 1) * time.Second).UnixNano()
	for i, p := range r.Paths {
		if want := newest - int64(i)*int64(time.Second); p.ModTime != want {
			t.Errorf("path %d (%s) has mtime %d, want the %d-th newest %d", i, p.Path, p.ModTime, i, want)
		}
	}
}
