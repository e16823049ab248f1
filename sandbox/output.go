package sandbox

import (
	"bytes"
	"io"
	"sync"
)

// output collects stdout and stderr of one command in separate buffers
// under one shared byte budget. The first write past the budget keeps what
// fits, marks the output truncated and calls stop, which ends the run.
type output struct {
	mu        sync.Mutex
	limit     int
	used      int
	stdout    bytes.Buffer
	stderr    bytes.Buffer
	truncated bool
	stop      func()
	// sink, when set, takes both streams as they are written (a
	// background command's, see RunStream): nothing is kept or capped
	// here.
	sink io.Writer
}

func newOutput(limit int, stop func()) *output { return &output{limit: limit, stop: stop} }

// newSinkOutput is an output that passes both streams on to w.
func newSinkOutput(w io.Writer) *output { return &output{sink: w} }

func (o *output) write(buf *bytes.Buffer, p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.sink != nil {
		return o.sink.Write(p)
	}
	if o.truncated {
		return len(p), nil // swallow: the run is being stopped
	}
	room := o.limit - o.used
	if len(p) <= room {
		o.used += len(p)
		return buf.Write(p)
	}
	buf.Write(p[:room])
	o.used = o.limit
	o.truncated = true
	if o.stop != nil {
		o.stop()
	}
	return len(p), nil
}

// stream is one of the two writers (stdout or stderr) of an output.
type stream struct {
	o   *output
	buf *bytes.Buffer
}

func (s stream) Write(p []byte) (int, error) { return s.o.write(s.buf, p) }

func (o *output) Stdout() stream { return stream{o, &o.stdout} }
func (o *output) Stderr() stream { return stream{o, &o.stderr} }

// result returns both streams and the truncation flag. The slices alias
// the buffers (no copy): call it only once the writers are done.
func (o *output) result() (stdout, stderr []byte, truncated bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.stdout.Bytes(), o.stderr.Bytes(), o.truncated
}

// resultCopy is result with copies taken under the lock, for writers that
// may still be running (a host process's output copiers after WaitDelay).
func (o *output) resultCopy() (stdout, stderr []byte, truncated bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return bytes.Clone(o.stdout.Bytes()), bytes.Clone(o.stderr.Bytes()), o.truncated
}
