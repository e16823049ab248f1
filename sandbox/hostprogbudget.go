package sandbox

import (
	"fmt"
	"sync"

	"github.com/ptc-dev/ptc/sandbox/hostexec"
)

// A host program writes into memory: its workspace layer, its /tmp and
// its /dev/shm are tmpfs mounts, sized when it starts. Sized one program
// at a time, three programs of a session running together each got the
// whole write quota plus slack (3.6 GiB of memory against a 2 GiB
// quota). So a session has one budget for all of them: a program's
// mounts are sized from what its running companions left, and it gives
// its share back when it ends.
//
// A program gets at most three quarters of what is left (its /tmp a
// quarter of that at most, when the workspace layer wants the rest), so a pipeline's
// later programs (go test | python3 filter.py) still find room; alone it
// gets all it asks for under the default budget. When what is left
// cannot hold the least a program needs (its /tmp contents, its
// /dev/shm, a small layer), it is refused with a message, never made to
// wait: the companions holding the budget may be waiting for it.

// DefaultRAMBudget bounds the memory all of one session's host programs
// may write at once (workspace layers, /tmp and /dev/shm together).
const DefaultRAMBudget = 4 << 30

// leastLayer is the smallest workspace layer or room above the /tmp
// contents a program starts with.
const leastLayer = 16 << 20

// ramBudget is one session's budget. Safe for concurrent use.
type ramBudget struct {
	mu    sync.Mutex
	total int64
	used  int64
}

// share is what one program was given.
type share struct {
	layer, tmp int64 // sizes of its workspace layer and its /tmp
	total      int64 // layer + tmp + /dev/shm, given back by release
}

// reserve sizes a program's mounts: layer wanted for the workspace (0:
// read-only, none), tmp wanted for /tmp of which seed are its starting
// contents. It fails when the rest of the budget cannot hold the least.
func (b *ramBudget) reserve(layer, tmp, seed int64) (share, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	left := b.total - b.used
	least := int64(hostexec.ShmSize) + seed + leastLayer
	if layer > 0 {
		least += leastLayer
	}
	if left < least {
		return share{}, fmt.Errorf("the session's host programs already hold %s of their %s memory budget for written files: wait for one to end, or write less to /tmp and the workspace",
			byteSize(b.used), byteSize(b.total))
	}
	give := max(left/4*3, least) - hostexec.ShmSize
	s := share{}
	s.tmp = min(tmp, max(give/4, seed+leastLayer))
	if layer > 0 {
		s.layer = min(layer, max(give-s.tmp, leastLayer))
	}
	s.total = s.layer + s.tmp + hostexec.ShmSize
	b.used += s.total
	return s, nil
}

// release gives a program's share back.
func (b *ramBudget) release(s share) {
	b.mu.Lock()
	b.used -= s.total
	b.mu.Unlock()
}

// budget returns the RAM budget of a session's workspace, shared by
// every instance of that session.
func (h *Host) budget(key poolKey) *ramBudget {
	id := key.session + "\x00" + key.ws
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.budgets == nil {
		h.budgets = map[string]*ramBudget{}
	}
	b, ok := h.budgets[id]
	if !ok {
		b = &ramBudget{total: h.hx.ramBudget}
		h.budgets[id] = b
	}
	return b
}
