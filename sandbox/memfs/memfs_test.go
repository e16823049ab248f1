package memfs

import (
	"archive/tar"
	"bytes"
	"io"
	"testing"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

const (
	rdonly = experimentalsys.O_RDONLY
	create = experimentalsys.O_WRONLY | experimentalsys.O_CREAT
)

func write(t *testing.T, f *FS, p, body string) experimentalsys.Errno {
	t.Helper()
	h, e := f.OpenFile(p, create|experimentalsys.O_TRUNC, 0o644)
	if e != 0 {
		return e
	}
	defer h.Close()
	_, e = h.Write([]byte(body))
	return e
}

func read(t *testing.T, f *FS, p string) (string, experimentalsys.Errno) {
	t.Helper()
	h, e := f.OpenFile(p, rdonly, 0)
	if e != 0 {
		return "", e
	}
	defer h.Close()
	buf := make([]byte, 64)
	n, e := h.Read(buf)
	return string(buf[:n]), e
}

func TestTheTreeBehavesLikeAFilesystem(t *testing.T) {
	f := New(1<<20, 0)
	steps := []struct {
		name string
		do   func() experimentalsys.Errno
		want experimentalsys.Errno
	}{
		{"a directory is made", func() experimentalsys.Errno { return f.Mkdir("d", 0o755) }, 0},
		{"a file is written in it", func() experimentalsys.Errno { return write(t, f, "/d/a.txt", "hello") }, 0},
		{"a missing parent fails", func() experimentalsys.Errno { return write(t, f, "x/y", "z") }, experimentalsys.ENOENT},
		{"a relative symlink works", func() experimentalsys.Errno { return f.Symlink("d/a.txt", "l") }, 0},
		{"an absolute symlink is refused", func() experimentalsys.Errno { return f.Symlink("/etc/passwd", "abs") }, experimentalsys.EPERM},
		{"a climbing symlink is refused", func() experimentalsys.Errno { return f.Symlink("../../x", "d/up") }, experimentalsys.EPERM},
		{"a non-empty directory is not removed", func() experimentalsys.Errno { return f.Rmdir("d") }, experimentalsys.ENOTEMPTY},
		{"a rename moves a file", func() experimentalsys.Errno { return f.Rename("d/a.txt", "b.txt") }, 0},
		{"dot-dot above the root is refused", func() experimentalsys.Errno { return write(t, f, "../escape", "x") }, experimentalsys.EPERM},
		{"a directory cannot go into itself", func() experimentalsys.Errno { return f.Rename("d", "d/e") }, experimentalsys.EINVAL},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if got := st.do(); got != st.want {
				t.Fatalf("got %v, want %v", got, st.want)
			}
		})
	}
	if s, e := read(t, f, "b.txt"); s != "hello" || e != 0 {
		t.Fatalf("b.txt = %q %v", s, e)
	}
	if _, e := read(t, f, "l"); e != experimentalsys.ENOENT {
		t.Fatalf("the dangling link reads %v", e)
	}
}

func TestTheSizeLimitHolds(t *testing.T) {
	f := New(10, 0)
	if e := write(t, f, "a", "12345678"); e != 0 {
		t.Fatal(e)
	}
	if e := write(t, f, "b", "abc"); e != experimentalsys.EIO || !f.Full() {
		t.Fatalf("past the limit: %v full=%v", e, f.Full())
	}
	if e := f.Unlink("a"); e != 0 || f.Used() != 0 {
		t.Fatalf("unlink gives the bytes back: %v used %d", e, f.Used())
	}
	if e := write(t, f, "b", "abc"); e != 0 {
		t.Fatal(e)
	}
}

func TestReaddirSkipsNothingWhileEntriesAreRemoved(t *testing.T) {
	f := New(1<<20, 0)
	for _, n := range []string{"a", "b", "c", "d"} {
		write(t, f, n, n)
	}
	d, _ := f.OpenFile(".", rdonly, 0)
	defer d.Close()
	var seen []string
	for {
		ents, e := d.Readdir(1)
		if e != 0 || len(ents) == 0 {
			break
		}
		seen = append(seen, ents[0].Name)
		f.Unlink(ents[0].Name)
	}
	if len(seen) != 4 {
		t.Fatalf("saw %v", seen)
	}
}

func TestWriteTarHoldsTheTree(t *testing.T) {
	f := New(1<<20, 0)
	f.Mkdir("d", 0o700)
	write(t, f, "d/x", "X")
	f.Symlink("d/x", "l")
	var buf bytes.Buffer
	if err := f.WriteTar(&buf); err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(&buf)
	var got []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, h.Name+":"+string(h.Typeflag))
	}
	if want := "[d/:5 d/x:0 l:2]"; fmtSlice(got) != want {
		t.Fatalf("got %v, want %s", got, want)
	}
}

func fmtSlice(s []string) string {
	var b bytes.Buffer
	b.WriteString("[")
	for i, x := range s {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(x)
	}
	b.WriteString("]")
	return b.String()
}
