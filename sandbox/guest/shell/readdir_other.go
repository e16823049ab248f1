//go:build !wasip1

package shell

import (
	"io/fs"
	"os"
)

// readDir is os.ReadDir natively (see readdir_wasip1.go).
func readDir(p string) ([]fs.DirEntry, error) { return os.ReadDir(p) }
