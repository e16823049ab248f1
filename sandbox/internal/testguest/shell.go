package testguest

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	guestwasm "github.com/ptc-dev/ptc/sandbox/guest/wasm"
	"github.com/ptc-dev/ptc/sandbox/internal/srchash"
)

var (
	shellOnce sync.Once
	shellWasm []byte
	shellErr  error
)

// Shell returns the shell guest (sandbox/guest/cmd/ptcguest) built from
// the sources in the tree as they are now, so tests of guest behaviour do
// not depend on the embedded copy being regenerated. The build (through
// the same generator as the embedded copy) is cached by a hash of the
// guest's sources, go.sum and the Go version. When the tree's guest does
// not build (someone is in the middle of a change), the embedded guest is
// used and the test says so.
func Shell(tb testing.TB) []byte {
	tb.Helper()
	shellOnce.Do(func() { shellWasm, shellErr = buildShell() })
	if shellErr != nil {
		tb.Logf("the tree's shell guest does not build, using the embedded one: %v", shellErr)
		return guestwasm.Wasm()
	}
	return shellWasm
}

func moduleRoot() string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..", "..")
}

// shellKey names a build of the tree's guest: the same source hash the
// embedded guest is checked against, and the Go version that builds it.
func shellKey(root string) (string, error) {
	src, err := srchash.Hash(root)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(src + "\x00" + runtime.Version()))
	return hex.EncodeToString(sum[:])[:16], nil
}

func buildShell() ([]byte, error) {
	root := moduleRoot()
	key, err := shellKey(root)
	if err != nil {
		return nil, err
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "ptc", "test-shell")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	out := filepath.Join(dir, key+".wasm")
	if b, err := os.ReadFile(out); err == nil {
		return b, nil
	}
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("go", "run", "./sandbox/guest/wasm/gen", "-out", tmp)
	cmd.Dir = root
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%v: %s", err, msg)
	}
	gz, err := os.ReadFile(filepath.Join(tmp, "ptcguest.wasm.gz"))
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(out+".tmp", raw, 0o600); err != nil {
		return nil, err
	}
	return raw, os.Rename(out+".tmp", out)
}
