package guestwasm

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ptc-dev/ptc/sandbox/internal/srchash"
)

func TestEmbeddedGuestMatchesItsSources(t *testing.T) {
	root, err := srchash.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	got, err := srchash.Hash(root)
	if err != nil {
		t.Fatal(err)
	}
	if got != SourceHash() {
		t.Fatalf("the embedded guest is stale: its sources changed since it was built; run go generate ./sandbox/guest/wasm")
	}
	sum := sha256.Sum256(Wasm())
	if hex.EncodeToString(sum[:]) != WasmHash() {
		t.Fatalf("the embedded guest does not match ptcguest.sum; run go generate ./sandbox/guest/wasm")
	}
}

func TestGuestBuildIsReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("rebuilds the guest; skipped with -short")
	}
	out := t.TempDir()
	gen := exec.Command("go", "run", "./gen", "-out", out)
	if msg, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("go run ./gen: %v\n%s", err, msg)
	}
	for _, name := range []string{"ptcguest.wasm.gz", "ptcguest.sum"} {
		fresh, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		committed, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fresh, committed) {
			t.Errorf("%s rebuilt from the same sources differs from the committed one", name)
		}
	}
}
