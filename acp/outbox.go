package acp

import (
	"context"
	"sync"

	sdk "github.com/coder/acp-go-sdk"
)

// outbox carries one session's updates to the client in the order the
// events were appended. The session's observer must be quick (it runs on
// the appending goroutine), so it only queues; one goroutine sends. A
// prompt drains the outbox before it answers, so every update of a turn
// reaches the client before the turn's stop reason.
type outbox struct {
	send func(sdk.SessionUpdate) error

	mu     sync.Mutex
	wake   *sync.Cond
	queue  []sdk.SessionUpdate
	queued uint64 // updates ever queued
	sent   uint64 // updates sent (or given up on)
	closed bool
	done   chan struct{}
}

func newOutbox(send func(sdk.SessionUpdate) error) *outbox {
	o := &outbox{send: send, done: make(chan struct{})}
	o.wake = sync.NewCond(&o.mu)
	go o.run()
	return o
}

// push queues updates; after close it drops them.
func (o *outbox) push(us ...sdk.SessionUpdate) {
	if len(us) == 0 {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	o.queue = append(o.queue, us...)
	o.queued += uint64(len(us))
	o.wake.Broadcast()
}

func (o *outbox) run() {
	defer close(o.done)
	for {
		o.mu.Lock()
		for len(o.queue) == 0 && !o.closed {
			o.wake.Wait()
		}
		if len(o.queue) == 0 {
			o.mu.Unlock()
			return
		}
		batch := o.queue
		o.queue = nil
		o.mu.Unlock()
		for _, u := range batch {
			// A failed send means the client is gone; the rest is
			// dropped the same way, and the connection ends the process.
			_ = o.send(u)
		}
		o.mu.Lock()
		o.sent += uint64(len(batch))
		o.wake.Broadcast()
		o.mu.Unlock()
	}
}

// flush waits until everything queued before the call has been sent, or
// ctx ends.
func (o *outbox) flush(ctx context.Context) error {
	o.mu.Lock()
	target := o.queued
	o.mu.Unlock()
	stop := context.AfterFunc(ctx, func() {
		o.mu.Lock()
		o.wake.Broadcast()
		o.mu.Unlock()
	})
	defer stop()
	o.mu.Lock()
	defer o.mu.Unlock()
	for o.sent < target && !o.closed {
		if err := ctx.Err(); err != nil {
			return err
		}
		o.wake.Wait()
	}
	return nil
}

// close sends what is queued, then stops the sender.
func (o *outbox) close() {
	o.mu.Lock()
	o.closed = true
	o.wake.Broadcast()
	o.mu.Unlock()
	<-o.done
}
