package jobs

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
)

// outputLog is one job's output: a file written as the command prints,
// capped at a number of bytes beyond which output is dropped (and
// counted), read back from where the last read stopped.
type outputLog struct {
	path  string
	limit int64

	mu      sync.Mutex
	f       *os.File
	size    int64 // bytes in the file
	lines   int   // newlines in the file
	dropped int64 // bytes past the limit, not kept
	err     error // the first write error (the file is then left as it is)
	changed chan struct{}
}

func newOutputLog(path string, limit int64) (*outputLog, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	return &outputLog{path: path, limit: limit, f: f, changed: make(chan struct{})}, nil
}

// Write keeps what fits under the limit; it never fails, so the command
// never sees an error for printing.
func (l *outputLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	keep := p
	if room := l.limit - l.size; int64(len(keep)) > room {
		keep = keep[:max(room, 0)]
	}
	l.dropped += int64(len(p) - len(keep))
	if len(keep) > 0 && l.err == nil {
		n, err := l.f.WriteAt(keep, l.size)
		l.size += int64(n)
		l.lines += bytes.Count(keep[:n], []byte{'\n'})
		l.err = err
		l.wake()
	}
	return len(p), nil
}

// wake tells waiting readers something changed. l.mu is held.
func (l *outputLog) wake() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// state is what a reader needs without reading the file.
func (l *outputLog) state() (size int64, lines int, dropped int64, changed <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.size, l.lines, l.dropped, l.changed
}

// readRange returns the bytes [from, to) of the file.
func (l *outputLog) readRange(from, to int64) ([]byte, error) {
	if to <= from {
		return nil, nil
	}
	b := make([]byte, to-from)
	n, err := l.f.ReadAt(b, from)
	if err == io.EOF {
		err = nil
	}
	return b[:n], err
}

// tail returns at most n bytes from the end of what was kept, starting
// on a line boundary when one is near.
func (l *outputLog) tail(n int64) string {
	size, _, _, _ := l.state()
	b, err := l.readRange(max(size-n, 0), size)
	if err != nil {
		return fmt.Sprintf("(the output could not be read: %v)", err)
	}
	if size > n {
		if i := bytes.IndexByte(b, '\n'); i >= 0 && i < len(b)-1 {
			b = b[i+1:]
		}
	}
	return string(bytes.ToValidUTF8(b, nil))
}

// finish closes the writer side; the file stays readable.
func (l *outputLog) finish() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.wake()
}

func (l *outputLog) close() error { return l.f.Close() }
