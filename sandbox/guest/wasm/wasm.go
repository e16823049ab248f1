// Package guestwasm embeds the compiled sandbox guest (sandbox/guest/cmd/
// ptcguest, a wasip1 reactor) for the host to run under wazero.
//
// The binary is produced by `go generate ./sandbox/guest/wasm` and
// committed; TestEmbeddedIsFresh fails when the guest's sources changed
// since, so regenerate then (each regeneration adds megabytes to history).
package guestwasm

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"strings"
	"sync"
)

//go:generate go run ./gen

//go:embed ptcguest.wasm.gz
var wasmGz []byte

//go:embed ptcguest.sum
var sumFile string

// Wasm returns the guest module's bytes, decompressed on first use and
// shared afterwards: callers must not modify the slice.
var Wasm = sync.OnceValue(func() []byte {
	zr, err := gzip.NewReader(bytes.NewReader(wasmGz))
	if err != nil {
		panic("guestwasm: embedded guest is corrupt: " + err.Error())
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		panic("guestwasm: embedded guest is corrupt: " + err.Error())
	}
	return raw
})

// SourceHash is the SHA-256 of the guest sources the embedded binary was
// built from (see sandbox/internal/srchash); the host can use it as a cache key.
func SourceHash() string { return sumField("source") }

// WasmHash is the SHA-256 of the uncompressed embedded module.
func WasmHash() string { return sumField("wasm") }

func sumField(name string) string {
	for _, line := range strings.Split(sumFile, "\n") {
		if k, v, ok := strings.Cut(line, " "); ok && k == name {
			return v
		}
	}
	return ""
}
