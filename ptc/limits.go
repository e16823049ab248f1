package ptc

import (
	"fmt"
	"time"
)

// Limits are the budgets of one run. The zero value of a field means its
// default (see DefaultLimits). A per-call timeout_ms may ask for any wall
// time up to MaxTimeout.
type Limits struct {
	// Timeout is the default wall time of a run, including time spent
	// waiting for tools and approval.
	Timeout time.Duration
	// MaxTimeout caps Timeout and any per-call timeout_ms.
	MaxTimeout time.Duration
	// VisibleOutput caps the bytes of rendered output (logs + result) the
	// model sees; the rest is spilled to Env.SpillDir when set.
	VisibleOutput int
	// HardOutput stops the program (kind output-limit) when its logs and
	// result exceed it; it protects host memory.
	HardOutput int
	// HeapGrowth stops the program (kind memory-limit) when the Go heap
	// grows by more than this many bytes during the run. goja has no
	// memory limit of its own; the watchdog samples the process heap.
	HeapGrowth uint64
	// HeapSample is how often the watchdog samples the heap.
	HeapSample time.Duration
	// CallStack is goja's maximum call stack depth.
	CallStack int
	// MaxCalls is the number of nested tool calls a run may make.
	MaxCalls int
	// Parallel is the pool of concurrency-safe nested calls running at once.
	Parallel int
}

// MaxCallArgs bounds the JSON arguments of one tool call from a program,
// in bytes. A larger call is refused in the engine, before anything is
// copied to the host: each call's arguments are held several times over
// there (the call, its events, the log's batch, validation), so a 60 MB
// string used to take the ptc process to 2.7–3.4 GB.
const MaxCallArgs = 4 << 20

// argsTooLarge is the message of a call refused for its size.
func argsTooLarge(name string, n int) string {
	return fmt.Sprintf("tools.%s: the arguments are %d bytes of JSON, over the %d MiB a tool call from a program may carry; pass a path instead of the content, or write large content in pieces", name, n, MaxCallArgs>>20)
}

// DefaultLimits are the budgets of the ptc preset.
var DefaultLimits = Limits{
	Timeout:       120 * time.Second,
	MaxTimeout:    600 * time.Second,
	VisibleOutput: 1 << 20,
	HardOutput:    16 << 20,
	HeapGrowth:    512 << 20,
	HeapSample:    5 * time.Millisecond,
	CallStack:     2000,
	MaxCalls:      1000,
	Parallel:      10,
}

// WithDefaults fills zero fields from DefaultLimits: the limits a run and
// the run_code tool actually apply.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits
	if l.Timeout <= 0 {
		l.Timeout = d.Timeout
	}
	if l.MaxTimeout <= 0 {
		l.MaxTimeout = d.MaxTimeout
	}
	if l.Timeout > l.MaxTimeout {
		l.Timeout = l.MaxTimeout
	}
	if l.VisibleOutput <= 0 {
		l.VisibleOutput = d.VisibleOutput
	}
	if l.HardOutput <= 0 {
		l.HardOutput = d.HardOutput
	}
	if l.HeapGrowth == 0 {
		l.HeapGrowth = d.HeapGrowth
	}
	if l.HeapSample <= 0 {
		l.HeapSample = d.HeapSample
	}
	if l.CallStack <= 0 {
		l.CallStack = d.CallStack
	}
	if l.MaxCalls <= 0 {
		l.MaxCalls = d.MaxCalls
	}
	if l.Parallel <= 0 {
		l.Parallel = d.Parallel
	}
	return l
}

// TimeoutFor returns the wall time of a run that asked for ms
// milliseconds (0: the default), capped at MaxTimeout.
func (l Limits) TimeoutFor(ms int64) time.Duration {
	t := l.Timeout
	if ms > 0 {
		t = time.Duration(ms) * time.Millisecond
	}
	if t > l.MaxTimeout {
		t = l.MaxTimeout
	}
	return t
}
