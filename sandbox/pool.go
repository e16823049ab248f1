package sandbox

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// poolKey identifies instances that are interchangeable: same workspace
// mount, same mode, same session (its quota and spill mount).
type poolKey struct {
	ws      string
	mode    Mode
	session string
	spill   string
}

// pool keeps pre-initialised instances of one key. An instance serves a
// one-off command and comes back (giveBack) when the command left it as
// it found it (instance.recycle), else it is discarded; a persistent
// shell keeps the one it took. Taking one starts a background refill
// when ready, filling and lent-out instances together fall below the
// pool size, so instantiation stays off the critical path and calls in a
// tight loop keep reusing the same few instances instead of waiting for
// fresh ones.
//
// When no instance is ready, get waits for one to come back or for a
// refill under way, and starts one more instantiation itself only when
// that looks sooner (see wait), so long commands (a host program, a
// sleep) run side by side while quick ones share instances.
type pool struct {
	h       *Host
	key     poolKey
	size    int
	ready   chan *instance
	failed  chan struct{} // a refill failed; a waiting get stops waiting
	filling atomic.Int32
	closed  atomic.Bool

	failures atomic.Int32 // refills failed in a row since the last success or get
	retrying atomic.Bool  // a retry of a failed refill is scheduled

	lent    atomic.Int32 // instances out with a one-off command, expected back
	waiting atomic.Int32 // gets waiting for an instance
	callNs  atomic.Int64 // moving average of a one-off command's duration
	fillNs  atomic.Int64 // moving average of an instantiation's duration
	made    atomic.Int64 // instances made for this pool (tests and benchmarks read it)
}

// Bounds of how often a waiting get reconsiders making an instance of
// its own, and what an instantiation is assumed to take before one has
// been timed.
const (
	minGrace    = time.Millisecond
	maxGrace    = 20 * time.Millisecond
	defaultFill = 50 * time.Millisecond
)

// A failed refill is retried in the background after retryBase, doubling
// up to retryMax, for at most maxRetries failures in a row, so a pool
// whose instantiation failed for a passing reason (a workspace not yet
// created, a file-descriptor squeeze) fills again without waiting for a
// command; a lasting failure stops costing CPU after a few seconds and is
// retried, and reported, by the next command.
const (
	retryBase  = 10 * time.Millisecond
	retryMax   = time.Second
	maxRetries = 8
)

// fillTimeout bounds the instantiation of a pooled instance.
const fillTimeout = time.Minute

func (h *Host) pool(key poolKey) *pool {
	h.mu.Lock()
	defer h.mu.Unlock()
	p, ok := h.pools[key]
	if !ok {
		size := max(h.cfg.PoolSize, 0)
		p = &pool{h: h, key: key, size: size, ready: make(chan *instance, max(size, 1)), failed: make(chan struct{}, 1)}
		if !h.shut.Load() { // a closing Host keeps no new pools
			h.pools[key] = p
		}
	}
	return p
}

// Prewarm fills the pool of (workspace, mode) in the background so the
// first command there finds an instance ready.
func (h *Host) Prewarm(workspace string, mode Mode) error {
	key, err := newKey(Scope{Workspace: workspace, Mode: mode})
	if err != nil {
		return err
	}
	h.pool(key).refill()
	return nil
}

// get takes a ready instance for a caller that keeps it (a persistent
// shell); see take.
func (p *pool) get(ctx context.Context) (*instance, error) { return p.take(ctx, 0) }

// take takes a ready instance, waits for one coming back or a refill
// already under way, or, when the pool is disabled or a refill failed,
// makes one now (which also reports why instantiation fails). self is 1
// when the caller is already counted as lent.
func (p *pool) take(ctx context.Context, self int32) (*instance, error) {
	p.failures.Store(0)
	if p.size == 0 { // the pool is disabled
		return p.make(ctx)
	}
	select {
	case in := <-p.ready:
		p.refill()
		return in, nil
	default:
	}
	p.refill()
	if p.filling.Load() > 0 || p.lent.Load() > self {
		if in, err := p.wait(ctx, self); in != nil || err != nil {
			return in, err
		}
	}
	return p.make(ctx)
}

// wait waits for an instance to come back or a refill to land. It starts
// one more instantiation only when that is likely the sooner way to an
// instance: when waiting has already lasted as long as an instantiation
// takes, or the queue of waiters would take that long to drain at the
// rate the lent-out instances come back. Quick commands in a tight loop
// or under Promise.all so share the instances there are (instantiating
// would only compete with them for the CPU); long ones (a host program,
// a sleep) get instances of their own. It returns nil, nil when a refill
// failed.
func (p *pool) wait(ctx context.Context, self int32) (*instance, error) {
	p.waiting.Add(1)
	defer p.waiting.Add(-1)
	start := time.Now()
	tick := time.NewTicker(p.grace())
	defer tick.Stop()
	for {
		select {
		case in := <-p.ready:
			p.refill()
			return in, nil
		case <-tick.C:
			if p.slower(time.Since(start), self) && p.filling.Load() < p.waiting.Load() && !p.closed.Load() {
				p.filling.Add(1)
				go p.fill()
			}
		case <-p.failed:
			return nil, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// slower reports whether waiting for a lent-out instance is likely to
// take longer than making one, after waited.
func (p *pool) slower(waited time.Duration, self int32) bool {
	fill := time.Duration(p.fillNs.Load())
	if fill == 0 {
		fill = defaultFill
	}
	lent := max(p.lent.Load()-self, 1)
	drain := time.Duration(p.waiting.Load()) * time.Duration(p.callNs.Load()) / time.Duration(lent)
	return waited >= fill || drain >= fill
}

// grace is how often a waiting get reconsiders: about twice the usual
// command, within bounds.
func (p *pool) grace() time.Duration {
	return min(max(2*time.Duration(p.callNs.Load()), minGrace), maxGrace)
}

// make instantiates one instance for the pool's key.
func (p *pool) make(ctx context.Context) (*instance, error) {
	start := time.Now()
	in, err := p.h.newInstance(ctx, p.key)
	if err == nil {
		p.made.Add(1)
		average(&p.fillNs, time.Since(start))
	}
	return in, err
}

// lend is get for a one-off command, whose instance is expected back
// through giveBack.
func (p *pool) lend(ctx context.Context) (*instance, error) {
	p.lent.Add(1)
	in, err := p.take(ctx, 1)
	if err != nil {
		p.lent.Add(-1)
	}
	return in, err
}

// giveBack ends a one-off command's use of in, which took d and ended
// with o and err: a fit instance goes back to the ready ones (a waiting
// get takes it at once), any other is released and replaced. It runs
// while the Host's life lock is still held (recycle calls into the guest).
func (p *pool) giveBack(in *instance, o Outcome, err error, d time.Duration) {
	average(&p.callNs, d)
	if p.size > 0 && !p.closed.Load() && in.recycle(o, err) {
		select {
		case p.ready <- in:
			p.lent.Add(-1)
			if p.closed.Load() {
				p.drain(context.Background())
			}
			return
		default: // enough are ready already
		}
	}
	p.lent.Add(-1)
	// Closing the module takes about a millisecond: not on the caller's time.
	go in.release()
	p.refill()
}

// average folds d into the moving average a (the first sample sets it).
func average(a *atomic.Int64, d time.Duration) {
	old := a.Load()
	if old == 0 {
		a.Store(int64(d))
		return
	}
	a.Store(old - old/8 + int64(d)/8)
}

// refill starts background instantiations until ready, in-flight and
// lent-out instances reach the pool size.
func (p *pool) refill() {
	for !p.closed.Load() && len(p.ready)+int(p.filling.Load())+int(p.lent.Load()) < p.size {
		p.filling.Add(1)
		go p.fill()
	}
}

// fill makes one instance and offers it to the pool.
func (p *pool) fill() {
	defer p.filling.Add(-1)
	leave, ok := p.h.tryEnter()
	if !ok {
		p.wake()
		return
	}
	defer leave()
	ctx, cancel := context.WithTimeout(context.Background(), fillTimeout)
	defer cancel()
	in, err := p.make(ctx)
	if err != nil {
		p.wake()
		p.retryLater()
		return
	}
	p.failures.Store(0)
	select {
	case p.ready <- in:
		if p.closed.Load() {
			p.drain(context.Background())
			p.wake()
		}
	default:
		in.release()
	}
}

// retryLater schedules one refill after a backoff that grows with the
// failures in a row, unless one is already scheduled or too many failed.
func (p *pool) retryLater() {
	n := p.failures.Add(1)
	if n > maxRetries || p.closed.Load() || !p.retrying.CompareAndSwap(false, true) {
		return
	}
	delay := min(retryBase<<(n-1), retryMax)
	time.AfterFunc(delay, func() {
		p.retrying.Store(false)
		p.refill()
	})
}

// wake tells a get waiting for a refill that none is coming.
func (p *pool) wake() {
	select {
	case p.failed <- struct{}{}:
	default:
	}
}

// drain releases every ready instance and stops refills.
func (p *pool) drain(ctx context.Context) {
	p.closed.Store(true)
	for {
		select {
		case in := <-p.ready:
			in.release()
		case <-ctx.Done():
			return
		default:
			return
		}
	}
}

var errShellClosed = errors.New("sandbox: the persistent shell is closed")
