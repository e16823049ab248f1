package hostexec

import (
	"archive/tar"
	"bytes"
	"io"
	"path"
	"strings"
	"testing"
)

func tarOf(t testing.TB, entries ...*tar.Header) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range entries {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			tw.Write(bytes.Repeat([]byte("x"), int(h.Size)))
		}
	}
	tw.Close()
	return buf.Bytes()
}

func TestAHostileChangeStreamIsRefused(t *testing.T) {
	tests := []struct {
		name string
		hdr  *tar.Header
	}{
		{"an absolute name", &tar.Header{Name: "/etc/passwd", Typeflag: tar.TypeReg}},
		{"a name climbing out", &tar.Header{Name: "a/../../x", Typeflag: tar.TypeReg}},
		{"dot-dot itself", &tar.Header{Name: "..", Typeflag: tar.TypeDir}},
		{"a name that is not clean", &tar.Header{Name: "a//b", Typeflag: tar.TypeReg}},
		{"a hard link entry", &tar.Header{Name: "h", Typeflag: tar.TypeLink, Linkname: "/etc/shadow"}},
		{"a block device", &tar.Header{Name: "dev", Typeflag: tar.TypeBlock}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			called := false
			err := ReadChanges(bytes.NewReader(tarOf(t, tt.hdr)), func(Change) error { called = true; return nil })
			if err == nil || called {
				t.Fatalf("err %v, callback %v", err, called)
			}
		})
	}
}

func FuzzReadChanges(f *testing.F) {
	f.Add(tarOf(f, &tar.Header{Name: "d/", Typeflag: tar.TypeDir, Mode: 0o755},
		&tar.Header{Name: "d/f", Typeflag: tar.TypeReg, Size: 3, Mode: 0o644},
		&tar.Header{Name: "l", Typeflag: tar.TypeSymlink, Linkname: "d/f"},
		&tar.Header{Name: "gone", Typeflag: tar.TypeChar}))
	f.Add([]byte("not a tar"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = ReadChanges(bytes.NewReader(data), func(c Change) error {
			if c.Path == "" || strings.HasPrefix(c.Path, "/") || c.Path != path.Clean(c.Path) || c.Path == ".." || strings.HasPrefix(c.Path, "../") {
				t.Fatalf("unclean path %q passed", c.Path)
			}
			if c.Body != nil {
				_, _ = io.Copy(io.Discard, c.Body)
			}
			return nil
		})
	})
}
