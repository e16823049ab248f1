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

// pool keeps pre-initialised instances of one key. An instance serves one
// command and is discarded; taking one starts a background refill, so
// instantiation stays off the command's critical path.
//
// When no instance is ready but refills are under way (calls arriving
// back to back), get waits for the first refill to land rather than
// instantiating one more: an instantiation already running finishes
// sooner than a new one, and a new one would compete with it for CPU.
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
}

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

// get takes a ready instance, waits for a refill already under way, or,
// when the pool is disabled or a refill failed, makes one now (which also
// reports why instantiation fails).
func (p *pool) get(ctx context.Context) (*instance, error) {
	p.failures.Store(0)
	select {
	case in := <-p.ready:
		p.refill()
		return in, nil
	default:
	}
	p.refill()
	if p.filling.Load() > 0 {
		select {
		case in := <-p.ready:
			p.refill()
			return in, nil
		case <-p.failed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return p.h.newInstance(ctx, p.key)
}

// refill starts background instantiations until ready plus in-flight
// instances reach the pool size.
func (p *pool) refill() {
	for !p.closed.Load() && len(p.ready)+int(p.filling.Load()) < p.size {
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
	in, err := p.h.newInstance(ctx, p.key)
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
