package ptc

import (
	"encoding/json"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"sync/atomic"
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

func init() {
	if os.Getenv(engineEnv) != wireVersion {
		return
	}
	budget, _ := strconv.ParseUint(os.Getenv(engineMemEnv), 10, 64)
	if budget == 0 {
		budget = DefaultLimits.HeapGrowth
	}
	os.Exit(serveEngine(os.Stdin, os.Stdout, budget))
}

// serveEngine is the engine process: it greets the host, then runs each
// program the host starts until the host goes away or a run retires the
// process.
func serveEngine(in io.Reader, out io.Writer, budget uint64) int {
	debug.SetMaxStack(maxEngineStack)
	debug.SetMemoryLimit(int64(goMemory() + budget + memMargin/2))
	if !raceEnabled { // the race detector maps terabytes of shadow memory
		limitAddressSpace(budget + memMargin + addressSlack)
	}
	w := newFrameWriter(out)
	if w.write(frameHello, []byte(wireVersion)) != nil {
		return 1
	}
	starts := make(chan *jsRun)
	var cur atomic.Pointer[jsRun]
	go readHost(newFrameReader(in, maxHostFrame), w, &cur, starts)
	for r := range starts {
		d := r.run()
		cur.CompareAndSwap(r, nil)
		if w.write(frameDone, encodeDone(d)...) != nil || d.Retire {
			return 0
		}
	}
	return 0
}

// readHost reads the host's frames: a start creates the run (so that an
// interrupt arriving at once finds it), settlements and interrupts go to
// the current run. When the host goes away the engine exits.
func readHost(fr *frameReader, w *frameWriter, cur *atomic.Pointer[jsRun], starts chan<- *jsRun) {
	for {
		typ, p, err := fr.next()
		if err != nil {
			os.Exit(0)
		}
		switch typ {
		case frameStart:
			var m startMsg
			if json.Unmarshal(p, &m) != nil {
				os.Exit(1)
			}
			r := newJSRun(m, w)
			cur.Store(r)
			starts <- r
		case frameSettle:
			if r := cur.Load(); r != nil {
				r.deliver(p)
			}
		case frameInterrupt:
			var f Failure
			if r := cur.Load(); r != nil && json.Unmarshal(p, &f) == nil {
				r.halt(&f)
			}
		}
	}
}
