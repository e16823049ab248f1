// This file is ptc's, not mvdan.cc/sh's: it replaces upstream's
// interp/stdin_os.go (see ../CHANGES.md), because GOOS=wasip1 has no
// os.Pipe: without it every pipeline, $(…) and here-document fails with
// "pipe: not implemented". It provides the same three functions and the
// stdinFile type, backed by in-memory pipes, on every platform, so the
// host's tests run the pipes the guest ships.

//go:build !js

package interp

import (
	"bufio"
	"io"
	"sync"
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

// newPipe connects a pipeline stage to the next one in memory. The read
// end is buffered: every reader of it (read, the builtins, a host
// program's pump) goes through the one pipeReader, so read can take a
// byte at a time from the buffer without losing what it did not use;
// unbuffered, each byte was a hand-off between goroutines.
func newPipe() (stdinFile, *io.PipeWriter, error) {
	r, w := io.Pipe()
	return &pipeReader{br: bufio.NewReaderSize(r, 64<<10), c: r}, w, nil
}

// pipeReader is a pipe's buffered read end, safe for readers in turn
// from several goroutines (a background job and the shell).
type pipeReader struct {
	mu sync.Mutex
	br *bufio.Reader
	c  io.Closer
}

func (p *pipeReader) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.br.Read(b)
}

// ReadByte serves the read builtin.
func (p *pipeReader) ReadByte() (byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.br.ReadByte()
}

func (p *pipeReader) Close() error                    { return p.c.Close() }
func (p *pipeReader) SetReadDeadline(time.Time) error { return nil }

// newStdinFile uses r directly: no copy through an OS pipe is needed.
func newStdinFile(r io.Reader) (stdinFile, error) {
	if r == nil {
		return nil, nil
	}
	return memReader{r}, nil
}

// stdinTerminal reports that the sandbox never has a terminal.
func stdinTerminal(stdinFile) (int, bool) { return -1, false }
