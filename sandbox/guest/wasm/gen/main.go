// Command gen builds the sandbox guest reactor reproducibly and writes
// ptcguest.wasm.gz and ptcguest.sum for package guestwasm to embed. It is
// run by `go generate ./sandbox/guest/wasm`; -out writes elsewhere (the
// reproducibility test uses it). The guest is ordinary Go of this module
// (the shell's interpreter is the in-tree fork under
// sandbox/guest/internal/sh), so the build is a plain go build for wasip1.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

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
	tmp, err := os.MkdirTemp("", "ptcguest-build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	src, err := srchash.Hash(root)
	if err != nil {
		return err
	}
	wasmPath := filepath.Join(tmp, "ptcguest.wasm")
	build := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-buildvcs=false",
		"-ldflags=-s -w", "-tags="+tags, "-o", wasmPath, "./sandbox/guest/cmd/ptcguest")
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
