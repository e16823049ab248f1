package fileops

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func code(r proto.FileResponse) string {
	if r.Error == nil {
		return ""
	}
	return r.Error.Code
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "t.txt")
	writeFile(t, text, "a\nb\r\nc\nd\n")
	long := filepath.Join(dir, "long.txt")
	writeFile(t, long, strings.Repeat("x", 2500)+"\n")
	bin := filepath.Join(dir, "b.bin")
	writeFile(t, bin, "ab\x00cd")
	big := filepath.Join(dir, "big.txt")
	writeFile(t, big, strings.Repeat(strings.Repeat("y", 99)+"\n", 3000))
	tests := []struct {
		name      string
		req       proto.FileRequest
		code      string
		first     int
		lines     int
		truncated bool
	}{
		{"a whole small file comes back numbered", proto.FileRequest{Path: text}, "", 1, 4, false},
		{"offset and limit select a window", proto.FileRequest{Path: text, Offset: 2, Limit: 2}, "", 2, 2, true},
		{"an offset past the end is invalid", proto.FileRequest{Path: text, Offset: 9}, proto.ErrInvalid, 0, 0, false},
		{"a binary file is refused", proto.FileRequest{Path: bin}, proto.ErrBinary, 0, 0, false},
		{"a directory is refused", proto.FileRequest{Path: dir}, proto.ErrIsDir, 0, 0, false},
		{"a missing file is not found", proto.FileRequest{Path: filepath.Join(dir, "nope")}, proto.ErrNotFound, 0, 0, false},
		{"the byte cap stops early", proto.FileRequest{Path: big}, "", 1, 500, true},
		{"the default line cap is 2000", proto.FileRequest{Path: big, MaxBytes: 1 << 20}, "", 1, 2000, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Read(&tt.req)
			if code(r) != tt.code {
				t.Fatalf("code %q, want %q (%+v)", code(r), tt.code, r.Error)
			}
			if tt.code != "" {
				return
			}
			if len(r.Lines) != tt.lines || r.Lines[0].N != tt.first || r.Truncated != tt.truncated || r.Stat.SHA256 == "" {
				t.Errorf("got %d lines from %d truncated=%v", len(r.Lines), r.Lines[0].N, r.Truncated)
			}
		})
	}
	t.Run("carriage returns are dropped", func(t *testing.T) {
		if r := Read(&proto.FileRequest{Path: text}); r.Lines[1].Text != "b" || r.TotalLine != 4 {
			t.Errorf("%+v", r.Lines)
		}
	})
	t.Run("long lines are cut with a marker", func(t *testing.T) {
		r := Read(&proto.FileRequest{Path: long})
		if got := r.Lines[0].Text; !strings.HasSuffix(got, LineCutMarker) || len(got) != MaxLineChars+len(LineCutMarker) {
			t.Errorf("line of %d bytes", len(got))
		}
	})
}

func TestWriteAndEdit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "deep", "f.txt")
	w := Write(&proto.FileRequest{Path: p, Content: "x = 1\ny = 1\n", ExpectAbsent: true})
	if w.Error != nil || w.Stat.SHA256 == "" {
		t.Fatalf("write creating parents: %+v", w.Error)
	}
	sha := w.Stat.SHA256
	tests := []struct {
		name string
		op   func() proto.FileResponse
		code string
	}{
		{"writing with ExpectAbsent over an existing file is stale", func() proto.FileResponse {
			return Write(&proto.FileRequest{Path: p, Content: "z", ExpectAbsent: true})
		}, proto.ErrStale},
		{"writing with a wrong hash is stale", func() proto.FileResponse {
			return Write(&proto.FileRequest{Path: p, Content: "z", ExpectSHA256: strings.Repeat("0", 64)})
		}, proto.ErrStale},
		{"an edit whose text appears twice is not unique", func() proto.FileResponse {
			return Edit(&proto.FileRequest{Path: p, OldString: "= 1", NewString: "= 2"})
		}, proto.ErrNotUnique},
		{"an edit of absent text finds no match", func() proto.FileResponse {
			return Edit(&proto.FileRequest{Path: p, OldString: "nothing", NewString: "x"})
		}, proto.ErrNoMatch},
		{"an edit with a wrong hash is stale", func() proto.FileResponse {
			return Edit(&proto.FileRequest{Path: p, OldString: "x", NewString: "w", ExpectSHA256: "ab"})
		}, proto.ErrStale},
		{"an edit of a directory is refused", func() proto.FileResponse {
			return Edit(&proto.FileRequest{Path: dir, OldString: "x", NewString: "w"})
		}, proto.ErrIsDir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := code(tt.op()); got != tt.code {
				t.Errorf("code %q, want %q", got, tt.code)
			}
		})
	}
	t.Run("not unique reports the count", func(t *testing.T) {
		if r := Edit(&proto.FileRequest{Path: p, OldString: "1", NewString: "2"}); r.Error.Count != 2 {
			t.Errorf("count %d", r.Error.Count)
		}
	})
	t.Run("replaceAll with the right hash changes every match", func(t *testing.T) {
		r := Edit(&proto.FileRequest{Path: p, OldString: "= 1", NewString: "= 2", ReplaceAll: true, ExpectSHA256: sha})
		data, _ := os.ReadFile(p)
		if r.Error != nil || r.Replaced != 2 || string(data) != "x = 2\ny = 2\n" || r.Stat.SHA256 == sha {
			t.Errorf("%+v %q", r, data)
		}
	})
}

func TestStat(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"a.go": "package a\nfunc A() {}\n"}
	for name, content := range files {
		writeFile(t, filepath.Join(dir, name), content)
	}
	t.Run("stat hashes a regular file", func(t *testing.T) {
		r := Stat(&proto.FileRequest{Path: filepath.Join(dir, "a.go")})
		if r.Error != nil || len(r.Stat.SHA256) != 64 || r.Stat.Size != int64(len(files["a.go"])) {
			t.Errorf("%+v", r)
		}
	})
}
