package sandbox

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGzipCompressedByTheHostReadsBack has the guest's gzip and tar czf
// compress through the host (several deflate segments) and reads the
// results back with Go's gzip here and with the guest's own gunzip.
func TestGzipCompressedByTheHostReadsBack(t *testing.T) {
	h := smallGuest(t)
	ws, _ := sandboxDir(t)
	data := bytes.Repeat([]byte("2026-11-01 00:00:00 INFO [worker-13] GET /api/v1/alpha 200 12ms\n"), 50000)
	if err := os.WriteFile(filepath.Join(ws, "app.log"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	o := longRun(t, h, ws, "gzip -k app.log && tar czf a.tgz app.log && gzip -dc app.log.gz | cmp - app.log && tar xzOf a.tgz | cmp - app.log && echo same")
	if string(o.Stdout) != "same\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", o.ExitCode, o.Stdout, o.Stderr)
	}
	gz, err := os.ReadFile(filepath.Join(ws, "app.log.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(got, data) || zr.Name != "app.log" {
		t.Fatalf("read back %d of %d bytes, name %q, err %v", len(got), len(data), zr.Name, err)
	}
	if len(gz) > len(data)/10 {
		t.Fatalf("%d bytes compressed to %d", len(data), len(gz))
	}
}

// TestChecksumsHashedByTheHostAreTheRightOnes runs every checksum builtin
// over a file that spans several host digest chunks (with a short last
// one) and an empty file, and compares with Go's hashes on the host.
func TestChecksumsHashedByTheHostAreTheRightOnes(t *testing.T) {
	h := smallGuest(t)
	ws, _ := sandboxDir(t)
	data := make([]byte, 2<<20+12345)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	if err := os.WriteFile(filepath.Join(ws, "big.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "empty"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		command string
		new     func() hash.Hash
	}{
		{"md5sum", md5.New}, {"sha1sum", sha1.New}, {"sha224sum", sha256.New224},
		{"sha256sum", sha256.New}, {"sha384sum", sha512.New384}, {"sha512sum", sha512.New},
	} {
		t.Run(tc.command+" prints the digests Go computes", func(t *testing.T) {
			sum := func(b []byte) string {
				d := tc.new()
				d.Write(b)
				return hex.EncodeToString(d.Sum(nil))
			}
			want := sum(data) + "  big.bin\n" + sum(nil) + "  empty\n" + sum(data) + "  -\n"
			o := longRun(t, h, ws, tc.command+" big.bin empty; "+tc.command+" < big.bin")
			if string(o.Stdout) != want || o.ExitCode != 0 {
				t.Fatalf("exit %d\ngot  %q\nwant %q\nstderr %q", o.ExitCode, o.Stdout, want, o.Stderr)
			}
			check := tc.command + " big.bin > sums && " + tc.command + " -c sums"
			if o := longRun(t, h, ws, check); !strings.Contains(string(o.Stdout), "big.bin: OK") {
				t.Fatalf("-c: %q %q", o.Stdout, o.Stderr)
			}
		})
	}
}
