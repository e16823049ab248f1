// Package testguest builds the probe guest (sandbox/internal/probe) for
// tests: GOOS=wasip1, -buildmode=c-shared, cached by a hash of its source
// so only the first test run after a change pays for the build.
package testguest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var (
	once sync.Once
	wasm []byte
	berr error
)

// Probe returns the probe guest's wasm bytes, failing tb if it cannot be
// built.
func Probe(tb testing.TB) []byte {
	tb.Helper()
	once.Do(func() { wasm, berr = build() })
	if berr != nil {
		tb.Fatalf("building the probe guest: %v", berr)
	}
	return wasm
}

func build() ([]byte, error) {
	_, self, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(self), "..", "probe")
	h := sha256.New()
	entries, err := os.ReadDir(src)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "%s %d\n", e.Name(), len(b))
		h.Write(b)
	}
	fmt.Fprintln(h, runtime.Version())
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "ptc", "test-probe")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	out := filepath.Join(dir, hex.EncodeToString(h.Sum(nil))[:16]+".wasm")
	if b, err := os.ReadFile(out); err == nil {
		return b, nil
	}
	tmp := out + fmt.Sprintf(".%d.tmp", os.Getpid())
	cmd := exec.Command("go", "build", "-trimpath", "-buildmode=c-shared", "-o", tmp, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%v: %s", err, msg)
	}
	if err := os.Rename(tmp, out); err != nil {
		return nil, err
	}
	return os.ReadFile(out)
}
