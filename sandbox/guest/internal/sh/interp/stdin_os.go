// This file is ptc's, not mvdan.cc/sh's: it replaces upstream's
// interp/stdin_os.go (see ../CHANGES.md), because GOOS=wasip1 has no
// os.Pipe: without it every pipeline, $(…) and here-document fails with
// "pipe: not implemented". It provides the same three functions and the
// stdinFile type, backed by in-memory pipes, on every platform, so the
// host's tests run the pipes the guest ships.

//go:build !js

package interp

import (
	"io"
	"time"
)

// stdinFile is what the runner reads standard input from. In the sandbox
// any reader will do: there are no subprocesses to inherit a descriptor.
type stdinFile interface {
	io.ReadCloser
	SetReadDeadline(t time.Time) error
}

// memReader gives a plain reader the stdinFile methods. Deadlines are not
// supported; the read builtin only uses them to unblock on cancellation.
type memReader struct{ io.Reader }

func (m memReader) Close() error {
	if c, ok := m.Reader.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

func (memReader) SetReadDeadline(time.Time) error { return nil }

// newPipe connects a pipeline stage to the next one in memory.
func newPipe() (stdinFile, *io.PipeWriter, error) {
	r, w := io.Pipe()
	return memReader{r}, w, nil
}

// newStdinFile uses r directly: no copy through an OS pipe is needed.
func newStdinFile(r io.Reader) (stdinFile, error) {
	if r == nil {
		return nil, nil
	}
	return memReader{r}, nil
}

// stdinTerminal reports that the sandbox never has a terminal.
func stdinTerminal(stdinFile) (int, bool) { return -1, false }
