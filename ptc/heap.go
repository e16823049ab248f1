package ptc

import (
	"fmt"
	"runtime/metrics"
	"time"
)

// memMargin is how far an engine's memory may go past its budget before
// the host kills it (see hostRun.watch). The engine's own check stops the
// program, with its line, halfway into the margin.
const memMargin = 64 << 20

// Go runtime metrics the engine watches. Reading them does not stop the
// world (unlike runtime.ReadMemStats).
const (
	liveMetric     = "/gc/heap/live:bytes"                 // heap marked live by the last GC
	totalMetric    = "/memory/classes/total:bytes"         // all memory the runtime mapped
	releasedMetric = "/memory/classes/heap/released:bytes" // of which returned to the OS
)

// memWatch measures the engine process's memory against its start. The
// engine runs one program at a time, so the growth is that program's.
type memWatch struct {
	sample              []metrics.Sample
	baseLive, baseTotal uint64
}

func newMemWatch() *memWatch {
	m := &memWatch{sample: []metrics.Sample{{Name: liveMetric}, {Name: totalMetric}, {Name: releasedMetric}}}
	m.baseLive, m.baseTotal = m.read()
	return m
}

// read returns the live heap and the mapped memory not returned to the OS.
func (m *memWatch) read() (live, total uint64) {
	metrics.Read(m.sample)
	v := func(i int) uint64 {
		if m.sample[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return m.sample[i].Value.Uint64()
	}
	return v(0), v(1) - min(v(1), v(2))
}

// grown reports the growth of the live heap and of the engine's memory
// since the start.
func (m *memWatch) grown() (live, total uint64) {
	l, t := m.read()
	return l - min(l, m.baseLive), t - min(t, m.baseTotal)
}

// goMemory is the engine process's mapped memory not returned to the OS.
func goMemory() uint64 {
	_, t := (&memWatch{sample: []metrics.Sample{{Name: liveMetric}, {Name: totalMetric}, {Name: releasedMetric}}}).read()
	return t
}

// memoryLimit is the failure of a program that went over its budget.
func memoryLimit(grown, limit uint64) *Failure {
	return &Failure{Kind: KindMemoryLimit, Message: fmt.Sprintf(
		"the program allocated too much memory (%d MiB, limit %d MiB); process data in smaller pieces",
		grown>>20, limit>>20)}
}

// memGrace is how long a program over its memory budget has to stop after
// the interrupt. A native operation (a fill, a join) does not see the
// interrupt and may go on allocating; the host's RSS kill would stop it,
// but with the Go memory limit near, the collector slows the operation
// down so much that getting there can take longer than the run's budget.
const memGrace = 200 * time.Millisecond

// watchHeap stops the program (memory-limit, with its line) when the live
// heap grows past the budget or the engine's memory past the budget plus
// half of memMargin. It samples between instructions' worth of time; a single
// native allocation is bounded by the engine's address-space limit and the
// host's kill instead, and a native operation that keeps allocating after
// the interrupt by memGrace (the engine then reports and exits).
func (r *jsRun) watchHeap() (stop func()) {
	limit := r.msg.HeapLimit
	m := newMemWatch()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Duration(r.msg.HeapSample))
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				// Calls made by a program that has not waited since go
				// out now: a long computation does not hold them back.
				r.w.flushIdle()
				live, total := m.grown()
				if live > limit || total > limit+memMargin/2 {
					r.halt(memoryLimit(max(live, total), limit))
					select {
					case <-done:
					case <-time.After(memGrace):
						r.abandon()
					}
					return
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}
