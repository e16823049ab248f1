package harness

import (
	"sync"

	"github.com/ptc-dev/ptc/runtime/session"
)

// feed fans the session's events out to its subscribers. publish runs as
// the log's OnEvent, under the log's lock, so subscribers see events in
// seq order; they must be quick.
type feed struct {
	mu     sync.Mutex
	next   int
	subs   map[int]func(session.Event)
	closed bool
}

func newFeed() *feed { return &feed{subs: map[int]func(session.Event){}} }

func (f *feed) subscribe(fn func(session.Event)) (stop func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.next
	f.next++
	if !f.closed {
		f.subs[id] = fn
	}
	return func() {
		f.mu.Lock()
		delete(f.subs, id)
		f.mu.Unlock()
	}
}

func (f *feed) publish(e session.Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, fn := range f.subs {
		fn(e)
	}
}

func (f *feed) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	f.subs = map[int]func(session.Event){}
}
