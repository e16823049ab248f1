package shell

import (
	"crypto/rand"
	"io"
	"path/filepath"
	"syscall"
)

// The guest has no /dev: the character devices scripts use are served in
// memory, for redirections (openHandler) and for builtins' file operands
// alike. Host programs see bwrap's own /dev.

// device is one of those devices.
type device struct {
	major, minor int
	read         func(p []byte) (int, error)
	write        func(p []byte) (int, error)
}

func (d device) Read(p []byte) (int, error)  { return d.read(p) }
func (d device) Write(p []byte) (int, error) { return d.write(p) }
func (device) Close() error                  { return nil }

func readEOF([]byte) (int, error)      { return 0, io.EOF }
func discard(p []byte) (int, error)    { return len(p), nil }
func writeFull([]byte) (int, error)    { return 0, syscall.ENOSPC }
func readRandom(p []byte) (int, error) { return rand.Read(p) }

func readZeros(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// devices are the served devices by path, with Linux's numbers.
var devices = map[string]device{
	"/dev/null":    {1, 3, readEOF, discard},
	"/dev/zero":    {1, 5, readZeros, discard},
	"/dev/full":    {1, 7, readZeros, writeFull},
	"/dev/random":  {1, 8, readRandom, discard},
	"/dev/urandom": {1, 9, readRandom, discard},
}

// openDevice returns the device at path, if it is one.
func openDevice(path string) (device, bool) {
	d, ok := devices[filepath.Clean(path)]
	return d, ok
}

// isDevice reports whether path is a served device.
func isDevice(path string) bool {
	_, ok := openDevice(path)
	return ok
}
