package sandbox

import (
	"context"
	"os"
	"sync"

	"github.com/ptc-dev/ptc/sandbox/hostexec"
)

// procBuf is how much of a host program's stdin, stdout or stderr waits
// on the host side for the guest; beyond it the writer waits (the guest's
// pipeline sets the pace, as an OS pipe would).
const procBuf = 64 << 10

// hostProc is one running host program of a guest instance.
type hostProc struct {
	cancel context.CancelFunc
	done   chan struct{} // closed when the program ended and its changes are applied
	res    hostexec.Result
	err    error

	stdin          *feed    // nil when stdin is not fed by the guest
	stdout, stderr *capture // nil for a stream going straight to the call's output
}

// exited reports whether the program ended and the guest has taken all
// of its output.
func (p *hostProc) exited() bool {
	select {
	case <-p.done:
	default:
		return false
	}
	return p.stdout.drained() && p.stderr.drained()
}

// feed carries the guest's bytes to a host program's stdin pipe.
type feed struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	eof    bool
	broken bool // the program closed its stdin (or ended)
	w      *os.File
	wake   func()
}

func newFeed(w *os.File, wake func()) *feed {
	f := &feed{w: w, wake: wake}
	f.cond = sync.NewCond(&f.mu)
	go f.pump()
	return f
}

// offer takes as much of p as fits without waiting; eof marks the end of
// stdin once those bytes are in.
func (f *feed) offer(p []byte, eof bool) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.broken {
		return len(p) // nobody reads: drop it, as a closed pipe would
	}
	n := min(len(p), procBuf-len(f.buf))
	f.buf = append(f.buf, p[:n]...)
	if eof && n == len(p) {
		f.eof = true
	}
	f.cond.Signal()
	return n
}

// pump writes what the guest offered into the pipe, then closes it.
func (f *feed) pump() {
	defer f.w.Close()
	for {
		f.mu.Lock()
		for len(f.buf) == 0 && !f.eof && !f.broken {
			f.cond.Wait()
		}
		if f.broken || len(f.buf) == 0 && f.eof {
			f.mu.Unlock()
			return
		}
		chunk := append([]byte(nil), f.buf...)
		f.mu.Unlock()
		n, err := f.w.Write(chunk)
		f.mu.Lock()
		f.buf = f.buf[n:]
		if err != nil {
			f.broken = true
		}
		f.mu.Unlock()
		f.wake()
	}
}

// stop ends the feed (the program ended).
func (f *feed) stop() {
	if f == nil {
		return
	}
	f.mu.Lock()
	f.broken = true
	f.cond.Signal()
	f.mu.Unlock()
}

// capture collects one output stream of a host program for the guest.
type capture struct {
	mu   sync.Mutex
	cond *sync.Cond
	buf  []byte
	eof  bool
	gone bool // the guest no longer reads it
	r    *os.File
	wake func()
}

func newCapture(r *os.File, wake func()) *capture {
	c := &capture{r: r, wake: wake}
	c.cond = sync.NewCond(&c.mu)
	go c.pump()
	return c
}

func (c *capture) pump() {
	chunk := make([]byte, 32<<10)
	for {
		c.mu.Lock()
		for len(c.buf) >= procBuf && !c.gone {
			c.cond.Wait()
		}
		gone := c.gone
		c.mu.Unlock()
		if gone {
			_ = c.r.Close() // the program's next write fails with EPIPE
			c.finish()
			return
		}
		n, err := c.r.Read(chunk)
		c.mu.Lock()
		c.buf = append(c.buf, chunk[:n]...)
		c.mu.Unlock()
		c.wake()
		if err != nil {
			_ = c.r.Close()
			c.finish()
			return
		}
	}
}

func (c *capture) finish() {
	c.mu.Lock()
	c.eof = true
	c.mu.Unlock()
	c.wake()
}

// take moves up to len(p) buffered bytes into p.
func (c *capture) take(p []byte) int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n := copy(p, c.buf)
	c.buf = c.buf[n:]
	if n > 0 {
		c.cond.Signal()
	}
	return n
}

// abandon tells the pump that nobody reads any more.
func (c *capture) abandon() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.gone, c.buf = true, nil
	c.cond.Signal()
	c.mu.Unlock()
	_ = c.r.Close() // interrupts a pump blocked reading
}

func (c *capture) drained() bool {
	if c == nil {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.eof && len(c.buf) == 0
}
