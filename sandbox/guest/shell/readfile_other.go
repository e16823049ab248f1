//go:build !wasip1

package shell

import "os"

// rawFile is the native stand-in for the wasip1 descriptor reader, so unit
// tests run the same reading logic through the os package.
type rawFile struct{ f *os.File }

func rawOpen(p string) (rawFile, error) {
	f, err := os.Open(p)
	return rawFile{f}, err
}

func (f rawFile) read(b []byte) (int, error) { return f.f.Read(b) }

func (f rawFile) close() { f.f.Close() }
