package ptc

import "runtime/metrics"

// heapMetric is the bytes of live and not-yet-swept heap objects. Reading
// it does not stop the world (unlike runtime.ReadMemStats).
const heapMetric = "/memory/classes/heap/objects:bytes"

// heapWatch compares the process heap with its size when the run started.
// It sees the whole process, so concurrent runs share the budget; that
// errs on the side of protecting the host.
type heapWatch struct {
	limit  uint64
	base   uint64
	sample []metrics.Sample
}

func newHeapWatch(limit uint64) *heapWatch {
	h := &heapWatch{limit: limit, sample: []metrics.Sample{{Name: heapMetric}}}
	h.base = h.read()
	return h
}

func (h *heapWatch) read() uint64 {
	metrics.Read(h.sample)
	if h.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return h.sample[0].Value.Uint64()
}

// over reports the growth since the start and whether it exceeds the limit.
func (h *heapWatch) over() (grown uint64, exceeded bool) {
	cur := h.read()
	if cur <= h.base {
		return 0, false
	}
	grown = cur - h.base
	return grown, grown > h.limit
}
