package shell

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"os/exec"
	"testing"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

func TestTheGzipWriterWritesWhatGunzipReads(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	text := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcdefgh \n"[rng.IntN(10)]
		}
		return b
	}
	for _, tc := range []struct {
		name  string
		data  []byte
		level int
		file  string
	}{
		{"an empty input is a header, a final block and a zero trailer", nil, gzip.DefaultCompression, ""},
		{"one byte", []byte("x"), gzip.DefaultCompression, "x.txt"},
		{"exactly one segment", text(proto.DeflateChunk), gzip.BestSpeed, ""},
		{"one byte past a segment", text(proto.DeflateChunk + 1), gzip.BestCompression, "f"},
		{"several segments, the last short", text(3*proto.DeflateChunk + 12345), gzip.DefaultCompression, "log"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			zw, err := newGzipWriter(&out, tc.level, tc.file)
			if err != nil {
				t.Fatal(err)
			}
			for p := tc.data; len(p) > 0; { // odd-sized writes
				k := min(len(p), 70000)
				zw.Write(p[:k])
				p = p[k:]
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			zr, err := gzip.NewReader(bytes.NewReader(out.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(got, tc.data) || zr.Name != tc.file {
				t.Fatalf("read back %d bytes (want %d), name %q, err %v", len(got), len(tc.data), zr.Name, err)
			}
			if gz, err := exec.LookPath("gzip"); err == nil {
				cmd := exec.Command(gz, "-dc")
				cmd.Stdin = bytes.NewReader(out.Bytes())
				if b, err := cmd.Output(); err != nil || !bytes.Equal(b, tc.data) {
					t.Fatalf("GNU gzip -dc: %v, %d bytes", err, len(b))
				}
			}
		})
	}
	t.Run("a name that is not plain ASCII goes to Go's gzip.Writer", func(t *testing.T) {
		var out bytes.Buffer
		zw, err := newGzipWriter(&out, gzip.DefaultCompression, "café")
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := zw.(*gzip.Writer); !ok {
			t.Fatalf("got %T", zw)
		}
	})
}
