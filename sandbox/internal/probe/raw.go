//go:build wasip1

package main

import (
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"unsafe"
)

//go:wasmimport wasi_snapshot_preview1 path_open
func pathOpen(fd int32, dirflags uint32, path unsafe.Pointer, pathLen uint32, oflags uint32,
	rightsBase uint64, rightsInheriting uint64, fdflags uint32, newfd unsafe.Pointer) uint32

//go:wasmimport wasi_snapshot_preview1 fd_close
func fdClose(fd int32) uint32

// rawOpen calls path_open directly on preopen fd (a decimal string) with
// path exactly as given, following symlinks, so no guest-side cleaning
// happens. It prints the WASI errno.
func rawOpen(fd, path string) string {
	n, err := strconv.Atoi(fd)
	if err != nil || path == "" {
		return "ERR usage: rawopen FD PATH"
	}
	b := []byte(path)
	var out int32
	const rightsAll = ^uint64(0)
	errno := pathOpen(int32(n), 1, unsafe.Pointer(&b[0]), uint32(len(b)), 0, rightsAll, rightsAll, 0, unsafe.Pointer(&out))
	if errno != 0 {
		return fmt.Sprintf("ERRNO %d", errno)
	}
	fdClose(out)
	return "OK"
}

func randHex(b []byte) string {
	_, _ = crand.Read(b)
	return hex.EncodeToString(b)
}
