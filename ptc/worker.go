package ptc

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"syscall"
)

// Programs run in engine processes: the host re-executes its own binary
// with engineEnv set, and this package's init turns that process into an
// engine before main runs. Any binary that links this package (ptc, a
// test binary, an embedder) can therefore host engines without a separate
// executable. An engine runs one program at a time, each in a fresh goja
// runtime, and may take several programs in turn (see enginePool).
const (
	engineEnv    = "PTC_RUNCODE_ENGINE" // set to wireVersion in an engine process
	engineMemEnv = "PTC_RUNCODE_MEMORY" // the memory budget of each program, in bytes
)

// maxEngineStack is the engine's Go stack limit. A native builtin that
// recurses without end (flat(Infinity) on a cyclic array) overflows it
// quickly, which ends the engine process and not the host.
const maxEngineStack = 64 << 20

// addressSlack is address space an engine may map beyond its budget and
// memMargin: thread stacks and runtime metadata, mostly never touched.
const addressSlack = 256 << 20

// maxHostFrame bounds a frame from the host (a nested call's value).
const maxHostFrame = 1 << 30

// interruptFD is the engine's descriptor for the host's interrupt pipe
// (the first of exec.Cmd.ExtraFiles).
const interruptFD = 3

func init() {
	if os.Getenv(engineEnv) != wireVersion {
		return
	}
	budget, _ := strconv.ParseUint(os.Getenv(engineMemEnv), 10, 64)
	if budget == 0 {
		budget = DefaultLimits.HeapGrowth
	}
	in, intr := blocking(0, "stdin"), pollable(interruptFD, "interrupts")
	os.Exit(unlocked(func() int { return serveEngine(in, intr, os.Stdout, budget) }))
}

// unlocked runs f on a fresh goroutine and returns its result. Package
// init runs on the main goroutine locked to the main OS thread, so every
// wake-up of a goroutine serving from init would first hand its P to that
// one thread (a futex wake and a context switch more per nested call).
func unlocked(f func() int) int {
	rc := make(chan int)
	go func() { rc <- f() }()
	return <-rc
}

// pollable opens descriptor fd in non-blocking mode, so that reading it
// parks the goroutine in Go's poller (and honours deadlines) instead of
// holding a thread in a blocking read, which also keeps sysmon waking
// every 20 µs to retake that thread's P. (The descriptor is taken once:
// a second *os.File of it would close it when collected.)
func pollable(fd int, name string) *os.File {
	_ = syscall.SetNonblock(fd, true)
	return os.NewFile(uintptr(fd), name)
}

// blocking opens descriptor fd in blocking mode, which keeps it out of
// Go's poller (see pipe.go). The mode belongs to the pipe end, which the
// host created non-blocking and no longer uses.
func blocking(fd int, name string) *os.File {
	_ = syscall.SetNonblock(fd, false)
	return os.NewFile(uintptr(fd), name)
}

// serveEngine is the engine process: it greets the host, then runs each
// program the host starts until the host goes away or a run retires the
// process. Starts and settlements come on in, which the goroutine running
// the programs reads itself (see loop.go); interrupts come on intr, read
// by a goroutine of their own so that they reach a busy program.
func serveEngine(in, intr *os.File, out io.Writer, budget uint64) int {
	debug.SetMaxStack(maxEngineStack)
	debug.SetMemoryLimit(int64(goMemory() + budget + memMargin/2))
	if !raceEnabled { // the race detector maps terabytes of shadow memory
		limitAddressSpace(budget + memMargin + addressSlack)
	}
	w := newFrameWriter(out)
	ib, err := newInbox(in)
	if err != nil {
		fmt.Fprintf(os.Stderr, "the engine cannot read its input: %v\n", err)
		return 1
	}
	if w.write(frameHello, []byte(wireVersion)) != nil {
		return 1
	}
	var it interrupts
	go it.read(newFrameReader(intr, maxInterruptFrame))
	for {
		ib.pr.poll = false // the next program may come any time
		typ, p, err := ib.next()
		switch {
		case err == errWoken:
			continue // a late wake from the previous run
		case err != nil:
			return 0 // the host went away
		case typ != frameStart:
			continue // a settlement the previous run no longer awaited
		}
		var m startMsg
		if json.Unmarshal(p, &m) != nil {
			return 1
		}
		r := newJSRun(m, w, ib)
		it.begin(r)
		d := r.run()
		it.end(r)
		if w.write(frameDone, encodeDone(d)...) != nil || d.Retire {
			return 0
		}
	}
}

// maxInterruptFrame bounds an interrupt frame (a JSON Failure).
const maxInterruptFrame = 64 << 10

// interrupts delivers the host's interrupts to the current run. One that
// arrives before its run has begun is kept and applied when it begins (an
// interrupted engine is never given another program).
type interrupts struct {
	cur     atomic.Pointer[jsRun]
	pending atomic.Pointer[Failure]
}

func (it *interrupts) begin(r *jsRun) {
	it.cur.Store(r)
	if f := it.pending.Load(); f != nil {
		r.halt(f)
	}
}

func (it *interrupts) end(r *jsRun) { it.cur.CompareAndSwap(r, nil) }

// read halts the current run for each interrupt frame; when the host goes
// away the engine exits (a busy program would not notice otherwise).
func (it *interrupts) read(fr *frameReader) {
	for {
		typ, p, err := fr.next()
		if err != nil {
			os.Exit(0)
		}
		var f Failure
		if typ != frameInterrupt || json.Unmarshal(p, &f) != nil {
			continue
		}
		it.pending.Store(&f)
		if r := it.cur.Load(); r != nil {
			r.halt(&f)
		}
	}
}
