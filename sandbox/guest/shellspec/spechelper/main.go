// Command spechelper serves the Oils spec helpers (see shellspec.Helpers)
// to a real shell: it runs the helper named by the base name it was
// invoked as, so a directory of symlinks to it (argv.py, printenv.py, ...)
// on PATH stands in for Oils' spec/bin.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ptc-dev/ptc/sandbox/guest/shellspec"
)

func main() {
	name := filepath.Base(os.Args[0])
	h, ok := shellspec.Helpers[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "spechelper: no helper named %q\n", name)
		os.Exit(2)
	}
	os.Exit(h(shellspec.Proc{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv: os.LookupEnv,
		FD: func(fd int) (io.Reader, error) {
			f := os.NewFile(uintptr(fd), fmt.Sprintf("fd %d", fd))
			if _, err := f.Stat(); err != nil {
				return nil, err
			}
			return f, nil
		},
	}, os.Args[1:]))
}
