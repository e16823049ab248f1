package ptc

import (
	"io"
	"os"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The host and its engine read each other's frames from pipes that Go's
// poller does not watch, polling briefly before they block (see "A
// sequential nested call costs one pipe round trip" in RATIONALE.md).
//
// A sequential nested call is a ping-pong: each side waits for the
// other's next frame, which for a quick tool or a quick program step
// comes within tens of µs. Parking in Go's poller for it costs more: the
// goroutine parks, its thread sleeps in epoll_wait, the peer's write
// wakes that thread, and the goroutine it finds wakes yet another thread
// to look for work. Worse, a pipe in the epoll set wakes the thread
// sleeping in epoll_wait on every write even while the reading goroutine
// is running or polling. So the pipes are plain blocking descriptors: a
// read first polls for up to spinWindow (poll(2) with no timeout, then
// read), and only then blocks in poll(2) in its own thread, which the
// peer's write wakes directly. Between polls it yields the CPU (a peer
// waiting for a CPU on a loaded machine gets it; on an idle one the
// yield returns at once).

// spinWindow is how long a read polls before it blocks: above the no-op
// round trip of either side, far below a real tool's run time.
const spinWindow = 50 * time.Microsecond

// maxSpinSkip bounds how many reads block at once after polls that found
// nothing: each miss doubles the count, a hit resets it, so a side that
// waits for slow tools or long program steps polls only now and then.
const maxSpinSkip = 16

// pipeReader reads one pipe end for one goroutine. Its descriptor is
// blocking and outside Go's poller; the file stays open while a read is
// in progress (the read holds it through its RawConn).
type pipeReader struct {
	f  *os.File
	rc syscall.RawConn

	// w, when set, lets other goroutines cut a read short (see wake).
	w *waker

	// poll asks reads to poll before they block; the owner sets it when
	// the peer's next frame is the answer to one it just sent (a
	// sequential call), and clears it otherwise, so that a side waiting
	// on work that keeps the peer's CPUs busy (a Promise.all batch) does
	// not take a CPU from it.
	poll bool

	skip, skipped int // polling reads to block at once, and how many did
}

func newPipeReader(f *os.File, w *waker) (*pipeReader, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	return &pipeReader{f: f, rc: rc, w: w}, nil
}

// Read returns what the pipe holds, waiting for it, or errWoken when the
// waker was woken since the last errWoken; bytes of a frame read before
// stay in the caller's buffer (bufio keeps them).
func (r *pipeReader) Read(p []byte) (n int, err error) {
	if len(p) == 0 {
		return 0, nil
	}
	spin := r.poll && r.skipped >= r.skip
	switch {
	case spin:
		r.skipped = 0
	case r.poll:
		r.skipped++
	}
	if rerr := r.rc.Read(func(fd uintptr) bool {
		n, err = r.read(int(fd), p, spin)
		return true
	}); rerr != nil {
		return 0, rerr
	}
	return n, err
}

func (r *pipeReader) read(fd int, p []byte, spin bool) (int, error) {
	until := time.Now().Add(spinWindow)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	if r.w != nil {
		fds = append(fds, unix.PollFd{Fd: int32(r.w.r), Events: unix.POLLIN})
	}
	for {
		if r.w != nil && r.w.taken() {
			return 0, errWoken
		}
		timeout := -1
		if spin {
			timeout = 0
		}
		if _, err := unix.Poll(fds, timeout); err != nil && err != unix.EINTR {
			return 0, &os.PathError{Op: "poll", Path: r.f.Name(), Err: err}
		}
		if len(fds) > 1 && fds[1].Revents != 0 {
			r.w.drain()
		}
		if fds[0].Revents != 0 { // data, or the writer closed its end
			n, err := syscall.Read(fd, p)
			switch {
			case err == syscall.EINTR || err == syscall.EAGAIN:
				continue
			case err != nil:
				return 0, &os.PathError{Op: "read", Path: r.f.Name(), Err: err}
			case n == 0:
				return 0, io.EOF
			}
			if spin {
				r.skip = 0
			}
			return n, nil
		}
		if spin && time.Now().After(until) {
			spin = false
			r.skip = min(max(2*r.skip, 1), maxSpinSkip)
		} else if spin {
			yieldCPU()
		}
	}
}

// waker cuts a pipeReader's read short from other goroutines: wake counts
// the call and writes to a pipe of its own, which the read polls with the
// data pipe. A read returns errWoken once per change of the count, so a
// wake while no read is in progress ends the next one.
type waker struct {
	r, w  int // the wake pipe, both ends non-blocking
	wakes atomic.Uint64
	seen  uint64 // the count the reader last returned errWoken for
}

func newWaker() (*waker, error) {
	r, w, err := rawPipe()
	if err != nil {
		return nil, err
	}
	if err := syscall.SetNonblock(r, true); err != nil {
		return nil, err
	}
	if err := syscall.SetNonblock(w, true); err != nil {
		return nil, err
	}
	return &waker{r: r, w: w}, nil
}

// wake ends the read in progress, or the next one. A full wake pipe
// already holds a wake the read has not drained.
func (k *waker) wake() {
	k.wakes.Add(1)
	_, _ = syscall.Write(k.w, []byte{1})
}

// taken reports a wake the reader has not returned errWoken for yet, and
// marks it returned. A wake after the count is read is seen next time.
func (k *waker) taken() bool {
	if n := k.wakes.Load(); n != k.seen {
		k.seen = n
		return true
	}
	return false
}

// drain empties the wake pipe (its bytes only make poll return).
func (k *waker) drain() {
	var b [64]byte
	for {
		if n, err := syscall.Read(k.r, b[:]); n <= 0 || err != nil {
			return
		}
	}
}

// rawPipe opens a pipe whose ends are close-on-exec, blocking, and not
// known to Go's poller.
func rawPipe() (r, w int, err error) {
	var p [2]int
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := syscall.Pipe(p[:]); err != nil {
		return 0, 0, err
	}
	syscall.CloseOnExec(p[0])
	syscall.CloseOnExec(p[1])
	return p[0], p[1], nil
}

// blockingPipe is rawPipe as files: os.NewFile leaves a blocking
// descriptor out of Go's poller.
func blockingPipe() (r, w *os.File, err error) {
	rfd, wfd, err := rawPipe()
	if err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(rfd), "|0"), os.NewFile(uintptr(wfd), "|1"), nil
}
