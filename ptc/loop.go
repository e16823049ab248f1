package ptc

import (
	"errors"
	"os"
)

// This file is the engine's event loop: how the goroutine that runs the
// program waits for settlements and timers. It executes inside the engine
// process.
//
// The loop goroutine reads the host's frames itself while the program
// waits: a settlement wakes exactly the goroutine that runs it, with no
// reader goroutine and channel hand-off in between (each hand-off cost a
// thread wake-up, which on a loaded machine is a scheduling delay). Other
// goroutines wake the loop out of that read through a wake pipe it polls
// with the host's: a timer that fired, a halt (host interrupt, heap
// watch).
// Interrupts come on their own pipe (see serveEngine), so they reach a
// program that is running and not reading.

// inbox is the engine's end of the host's frame stream (starts and
// settlements). Only the loop goroutine reads it; any goroutine may wake
// a read in progress.
type inbox struct {
	fr *frameReader
	pr *pipeReader
	w  *waker
}

// errWoken is a read that another goroutine cut short with wake.
var errWoken = errors.New("woken")

// newInbox reads the host's frames from f, a blocking pipe outside Go's
// poller (see pipe.go).
func newInbox(f *os.File) (*inbox, error) {
	w, err := newWaker()
	if err != nil {
		return nil, err
	}
	pr, err := newPipeReader(f, w)
	if err != nil {
		return nil, err
	}
	return &inbox{fr: newFrameReader(pr, maxHostFrame), pr: pr, w: w}, nil
}

// next returns the next frame, or errWoken when wake cut the read short;
// a partly read frame is kept for the next call.
//
// No wake is lost: a waker publishes its reason (a queued job, a closed
// halted channel) before it wakes, and a wake is taken (turned into
// errWoken) before the caller looks for reasons. A wake before the take
// is seen by that look; a wake after it ends the following read.
func (b *inbox) next() (byte, []byte, error) {
	typ, p, err := b.fr.next()
	if errors.Is(err, errWoken) {
		return 0, nil, errWoken
	}
	return typ, p, err
}

// wake ends the loop's read in progress, or its next one.
func (b *inbox) wake() {
	if b != nil {
		b.w.wake()
	}
}

// post queues a job for the loop from any goroutine (a timer's callback);
// it never blocks. Jobs posted after the loop ended are dropped. Only the
// first job of a batch wakes the loop: it takes them all.
func (r *jsRun) post(j job) {
	r.qmu.Lock()
	if r.ended {
		r.qmu.Unlock()
		return
	}
	first := len(r.queue) == 0
	r.queue = append(r.queue, j)
	r.qmu.Unlock()
	if first {
		r.in.wake()
	}
}

// take returns the queued jobs and empties the queue.
func (r *jsRun) take() []job {
	r.qmu.Lock()
	defer r.qmu.Unlock()
	q := r.queue
	r.queue = nil
	return q
}

// step sends the calls the program made, then waits for a settlement or
// a timer and runs it. When the program waits for one call and nothing
// else, a wait frame follows that call (see hostRun.loop).
func (r *jsRun) step() *Failure {
	if r.pending == 0 {
		return &Failure{Kind: KindException, Message: "the program is waiting for a promise that can never settle " +
			"(no tool call or timer is pending); make sure every Promise you await is resolved"}
	}
	alone := r.pending == 1 && len(r.timers) == 0
	if alone && r.unsent > 0 {
		// The call just made is all the program waits for: say so, so
		// that the host may run it without watching for more frames.
		_ = r.w.buffer(frameWait, u32(uint32(r.calls)))
	}
	r.in.pr.poll = alone // its settlement is the next frame: poll for it
	r.unsent = 0
	if r.w.flush() != nil {
		os.Exit(0) // the host went away
	}
	for {
		if jobs := r.take(); len(jobs) > 0 {
			for _, j := range jobs {
				if f := r.runJob(j); f != nil {
					return f
				}
			}
			return nil
		}
		if r.isHalted() {
			return r.haltFailure()
		}
		typ, p, err := r.in.next()
		switch {
		case err == errWoken:
			continue
		case err != nil:
			os.Exit(0) // the host went away (or broke the stream)
		case typ != frameSettle:
			continue // only settlements come during a run
		}
		s, err := decodeSettle(p)
		if err != nil {
			continue
		}
		return r.runJob(func() error { return r.settle(s) })
	}
}

// runJob runs program code from the loop (a settlement, a timer). A halt
// that lands meanwhile can make goja panic with its interrupt out of a
// promise job instead of returning it; that, or any halt before the job
// starts, ends the run with the halt's reason.
func (r *jsRun) runJob(j job) (f *Failure) {
	if r.isHalted() {
		return r.haltFailure()
	}
	defer func() {
		if p := recover(); p != nil {
			if !r.isHalted() {
				panic(p)
			}
			f = r.haltFailure()
		}
	}()
	if err := j(); err != nil {
		return r.failure(err)
	}
	return nil
}

// abandon ends the engine process while the program is still inside a
// native operation: it reports the halt as the run's end (retiring the
// process) and exits. The host keeps what it received before.
func (r *jsRun) abandon() {
	_ = r.w.write(frameDone, encodeDone(doneMsg{Failure: r.haltFailure(), Retire: true})...)
	os.Exit(0)
}
