// Command gen builds the sandbox guest reactor reproducibly and writes
// ptcguest.wasm.gz and ptcguest.sum for package guestwasm to embed. It is
// run by `go generate ./sandbox/guest/wasm`; -out writes elsewhere (the
// reproducibility test uses it).
//
// The build replaces mvdan.cc/sh's interp/stdin_os.go with our
// _overlay/interp_stdin_os.go (see stageInterpreter), because wasip1 has no
// os.Pipe and the interpreter's pipes would otherwise fail.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/guest/wasm/internal/srchash"
)

func main() {
	out := flag.String("out", ".", "directory to write ptcguest.wasm.gz and ptcguest.sum to")
	flag.Parse()
	if err := generate(*out); err != nil {
		fmt.Fprintf(os.Stderr, "gen: %v\n", err)
		os.Exit(1)
	}
}

func generate(out string) error {
	root, err := srchash.ModuleRoot(".")
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "ptcguest-build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	src, err := srchash.Hash(root) // before staging: the stage is not ours
	if err != nil {
		return err
	}
	stage := filepath.Join(root, "sandbox", "guest", "wasm", "_stage")
	defer os.RemoveAll(stage)
	modfile, err := stageInterpreter(root, stage, tmp)
	if err != nil {
		return err
	}
	wasmPath := filepath.Join(tmp, "ptcguest.wasm")
	build := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-buildvcs=false",
		"-ldflags=-s -w", "-modfile", modfile, "-o", wasmPath, "./sandbox/guest/cmd/ptcguest")
	build.Dir = root
	build.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0", "GOFLAGS=")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building the guest: %w", err)
	}
	raw, err := os.ReadFile(wasmPath)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression) // zero header: no name, no mtime
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		return err
	}
	wasmSum := sha256.Sum256(raw)
	sum := fmt.Sprintf("source %s\nwasm %s\n", src, hex.EncodeToString(wasmSum[:]))
	if err := os.WriteFile(filepath.Join(out, "ptcguest.wasm.gz"), gz.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen: ptcguest.wasm %d bytes, gzip %d bytes\n", len(raw), gz.Len())
	return os.WriteFile(filepath.Join(out, "ptcguest.sum"), []byte(sum), 0o644)
}

// stageInterpreter copies the mvdan.cc/sh/v3 module from the module cache
// (Go sources and go.mod only) to stageDir with interp/stdin_os.go replaced
// by our _overlay/interp_stdin_os.go, and writes a go.mod/go.sum pair to
// tmp that points the module there. The go tool refuses -overlay for files
// in the module cache, hence the staged copy; it is deleted after the build
// and never committed. The replace path is relative so the module info the
// linker records is the same on every machine.
func stageInterpreter(root, stageDir, tmp string) (modfile string, err error) {
	list := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "mvdan.cc/sh/v3")
	list.Dir = root
	dir, err := list.Output()
	if err != nil {
		return "", fmt.Errorf("locating mvdan.cc/sh/v3 (run go mod download): %w", err)
	}
	src := strings.TrimSpace(string(dir))
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		if name != "go.mod" && (!strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go")) {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		if strings.Contains(rel, "testdata") {
			return nil
		}
		if rel == filepath.Join("interp", "stdin_os.go") {
			p = filepath.Join(root, "sandbox", "guest", "wasm", "_overlay", "interp_stdin_os.go")
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		to := filepath.Join(stageDir, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		return "", fmt.Errorf("staging the interpreter: %w", err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	rel, _ := filepath.Rel(root, stageDir)
	mod = append(mod, fmt.Sprintf("\nreplace mvdan.cc/sh/v3 => ./%s\n", filepath.ToSlash(rel))...)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return "", err
	}
	modfile = filepath.Join(tmp, "guest.mod")
	if err := os.WriteFile(modfile, mod, 0o644); err != nil {
		return "", err
	}
	return modfile, os.WriteFile(filepath.Join(tmp, "guest.sum"), sum, 0o644)
}
