package natsstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/ptc-dev/ptc/runtime/session"
)

// LeasesBucket holds one key per session being run: who runs it. The
// bucket's TTL expires a key its holder stopped renewing (a killed
// worker, a lost machine), so the session is free again after one TTL.
const LeasesBucket = "PTC_LEASES"

// leaseValue is what a lease key holds.
type leaseValue struct {
	Holder string `json:"holder"`
	Since  int64  `json:"since"` // Unix ms
}

// lease is a held session lease: renewed by compare-and-set every TTL/3
// while held; lost when a renewal finds another revision or no key, or
// when none succeeded for a whole TTL.
type lease struct {
	kv   jetstream.KeyValue
	id   string
	val  []byte
	ttl  time.Duration
	lost func(id string, why error)

	mu   sync.Mutex
	rev  uint64
	stop chan struct{}
	done chan struct{}
}

// acquire takes session id's lease for holder, or fails with
// session.ErrLocked naming the holder it found.
func acquire(ctx context.Context, kv jetstream.KeyValue, id, holder string, ttl time.Duration, lost func(string, error)) (*lease, error) {
	val, _ := json.Marshal(leaseValue{Holder: holder, Since: time.Now().UnixMilli()})
	rev, err := kv.Create(ctx, id, val)
	if errors.Is(err, jetstream.ErrKeyExists) {
		who := "another worker"
		if e, gerr := kv.Get(ctx, id); gerr == nil {
			var v leaseValue
			if json.Unmarshal(e.Value(), &v) == nil && v.Holder != "" {
				who = v.Holder
			}
		}
		return nil, fmt.Errorf("session %s is in use by %s: %w; follow it with `ptc attach --nats URL %s`, or wait for its turn to end (a holder that died lets go after %s)",
			id, who, session.ErrLocked, id, ttl)
	}
	if err != nil {
		return nil, fmt.Errorf("session %s: take its lease: %w", id, err)
	}
	l := &lease{kv: kv, id: id, val: val, ttl: ttl, lost: lost, rev: rev, stop: make(chan struct{}), done: make(chan struct{})}
	go l.renew()
	return l, nil
}

func (l *lease) renew() {
	defer close(l.done)
	tick := time.NewTicker(l.ttl / 3)
	defer tick.Stop()
	last := time.Now()
	for {
		select {
		case <-l.stop:
			return
		case <-tick.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), l.ttl/3)
		l.mu.Lock()
		rev, err := l.kv.Update(ctx, l.id, l.val, l.rev)
		if err == nil {
			l.rev = rev
		}
		l.mu.Unlock()
		cancel()
		switch {
		case err == nil:
			last = time.Now()
		case errors.Is(err, jetstream.ErrKeyRevisionMismatch), errors.Is(err, jetstream.ErrKeyNotFound), errors.Is(err, jetstream.ErrKeyExists):
			l.fail(fmt.Errorf("session %s: its lease was taken over: %w", l.id, err))
			return
		case time.Since(last) > l.ttl:
			l.fail(fmt.Errorf("session %s: its lease could not be renewed for %s: %w", l.id, l.ttl, err))
			return
		}
	}
}

func (l *lease) fail(err error) {
	if l.lost != nil {
		l.lost(l.id, err)
	}
}

// release stops renewing and deletes the key if it is still ours.
func (l *lease) release() error {
	select {
	case <-l.stop:
		return nil
	default:
	}
	close(l.stop)
	<-l.done
	ctx, cancel := context.WithTimeout(context.Background(), l.ttl)
	defer cancel()
	l.mu.Lock()
	defer l.mu.Unlock()
	err := l.kv.Delete(ctx, l.id, jetstream.LastRevision(l.rev))
	if err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) && !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		return fmt.Errorf("session %s: release its lease: %w", l.id, err)
	}
	return nil
}
