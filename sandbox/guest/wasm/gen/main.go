// Command gen builds the sandbox guest reactor reproducibly and writes
// ptcguest.wasm.gz and ptcguest.sum for package guestwasm to embed. It is
// run by `go generate ./sandbox/guest/wasm`; -out writes elsewhere (the
// reproducibility test uses it).
//
// The guest is built against a staged copy of mvdan.cc/sh/v3 with our
// overlay (see stageInterpreter), laid out as:
//
//	_overlay/<pkg>/<file>.go          our file: replaces the upstream file of
//	                                  that name (interp/stdin_os.go: wasip1 has
//	                                  no os.Pipe) or is added to the package
//	_overlay/patches/<pkg>_<file>.patch  a unified diff against the upstream
//	                                  file, applied strictly; each change in it
//	                                  names the upstream bug it works around
//
// The patches are made against upstreamVersion only; a different module
// version in go.mod is refused until they are redone.
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
	"syscall"

	"github.com/ptc-dev/ptc/sandbox/internal/srchash"
)

func main() {
	out := flag.String("out", ".", "directory to write ptcguest.wasm.gz and ptcguest.sum to")
	tags := flag.String("tags", "", "extra build tags (the spec-compat harness builds with ptcspec)")
	flag.Parse()
	if err := generate(*out, *tags); err != nil {
		fmt.Fprintf(os.Stderr, "gen: %v\n", err)
		os.Exit(1)
	}
}

func generate(out, tags string) error {
	root, err := srchash.ModuleRoot(".")
	if err != nil {
		return err
	}
	unlock, err := lockStage(root)
	if err != nil {
		return err
	}
	defer unlock()
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
		"-ldflags=-s -w", "-tags="+tags, "-modfile", modfile, "-o", wasmPath, "./sandbox/guest/cmd/ptcguest")
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

// lockStage serialises builds of one tree: they all stage the interpreter
// at the same path (the path is recorded in the binary, so it cannot vary),
// and go test runs the packages that build the guest in parallel.
func lockStage(root string) (unlock func(), err error) {
	sum := sha256.Sum256([]byte(root))
	name := filepath.Join(os.TempDir(), "ptcguest-stage-"+hex.EncodeToString(sum[:8])+".lock")
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("locking the build stage: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking the build stage: %w", err)
	}
	return func() { f.Close() }, nil
}

// upstreamVersion is the mvdan.cc/sh/v3 version the overlay patches apply to.
const upstreamVersion = "v3.14.1"

// stageInterpreter copies the mvdan.cc/sh/v3 module from the module cache
// (Go sources and go.mod only) to stageDir with the overlay applied (see
// the package comment), and writes a go.mod/go.sum pair to tmp that points
// the module there. The go tool refuses -overlay for files
// in the module cache, hence the staged copy; it is deleted after the build
// and never committed. The replace path is relative so the module info the
// linker records is the same on every machine.
func stageInterpreter(root, stageDir, tmp string) (modfile string, err error) {
	list := exec.Command("go", "list", "-m", "-f", "{{.Dir}} {{.Version}}", "mvdan.cc/sh/v3")
	list.Dir = root
	info, err := list.Output()
	if err != nil {
		return "", fmt.Errorf("locating mvdan.cc/sh/v3 (run go mod download): %w", err)
	}
	src, version, _ := strings.Cut(strings.TrimSpace(string(info)), " ")
	if version != upstreamVersion {
		return "", fmt.Errorf("the interpreter overlay is made for mvdan.cc/sh/v3 %s, go.mod has %s: redo the patches in %s", upstreamVersion, version, srchash.Overlay)
	}
	ov, err := readOverlay(filepath.Join(root, filepath.FromSlash(srchash.Overlay)))
	if err != nil {
		return "", err
	}
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
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if data, err = ov.apply(filepath.ToSlash(rel), data); err != nil {
			return err
		}
		return writeStaged(stageDir, rel, data)
	})
	if err == nil {
		err = ov.addNew(stageDir)
	}
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
