package rootfs

import "sync/atomic"

// Quota is a budget of bytes by which files written through one or more
// FS values (for example every call of one session) may grow in total:
// growing a file is charged, overwriting bytes it has is free, and
// truncating or removing a file (its last link) gives its bytes back, so
// the budget bounds how much the workspace grows, however often files are
// rewritten. Writes that would exceed it fail with EIO (wazero's errno
// set has no ENOSPC) and write nothing; FS.QuotaHit then reports it. A
// nil *Quota means unlimited.
type Quota struct {
	limit int64
	used  atomic.Int64
}

// NewQuota returns a quota of limit bytes.
func NewQuota(limit int64) *Quota { return &Quota{limit: limit} }

// Used reports the net bytes charged so far (negative when more was
// freed than written).
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

// Remaining reports the bytes that may still be charged.
func (q *Quota) Remaining() int64 {
	if q == nil {
		return 1 << 62
	}
	return q.limit - q.used.Load()
}

// Limit is the quota's size.
func (q *Quota) Limit() int64 {
	if q == nil {
		return 0
	}
	return q.limit
}

// refund gives back n bytes: an unused reservation or freed space.
func (q *Quota) refund(n int64) {
	if q != nil && n > 0 {
		q.used.Add(-n)
	}
}
