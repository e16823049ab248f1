package rootfs

import "sync/atomic"

// Quota is a budget of bytes that may be written through one or more FS
// values (for example every call of one session). Writes that would
// exceed it fail with EIO (wazero's errno set has no ENOSPC) and write
// nothing. A nil *Quota means unlimited.
type Quota struct {
	limit int64
	used  atomic.Int64
}

// NewQuota returns a quota of limit bytes.
func NewQuota(limit int64) *Quota { return &Quota{limit: limit} }

// Used reports the bytes charged so far.
func (q *Quota) Used() int64 {
	if q == nil {
		return 0
	}
	return q.used.Load()
}

// charge reserves n bytes, reporting false (and reserving nothing) when
// the budget would be exceeded.
func (q *Quota) charge(n int64) bool {
	if q == nil || n <= 0 {
		return true
	}
	for {
		u := q.used.Load()
		if u+n > q.limit {
			return false
		}
		if q.used.CompareAndSwap(u, u+n) {
			return true
		}
	}
}

// refund returns n unused bytes of a reservation.
func (q *Quota) refund(n int64) {
	if q != nil && n > 0 {
		q.used.Add(-n)
	}
}
