package session

import (
	"context"
	"errors"
)

// Errors every Store returns (wrapped) so callers can tell them apart.
var (
	ErrNotFound          = errors.New("session not found")
	ErrExists            = errors.New("session already exists")
	ErrLocked            = errors.New("session store is in use by another process")
	ErrSeqGap            = errors.New("event seq does not follow the last stored event")
	ErrUnsupportedFormat = errors.New("unsupported session format")
	ErrClosed            = errors.New("session store is closed")
	ErrReadOnly          = errors.New("session store is open read-only")
	// ErrCorrupt: a record that cannot be decoded sits before valid events,
	// so it is not a torn tail and cannot be dropped without losing data.
	ErrCorrupt = errors.New("session log is corrupt")
	// ErrNeedsRecovery: a read-only open found a store whose last writer
	// was killed; only a read-write open can replay and truncate its log.
	ErrNeedsRecovery = errors.New("session store needs recovery")
	// ErrConflict: another writer appended to the session first. A store
	// shared by several processes (natsstore) fences every append on the
	// session's last stored event; the loser of a race gets this and
	// nothing of its batch is stored. A store with an owner lock never
	// returns it (the second writer fails earlier, with ErrLocked).
	ErrConflict = errors.New("another writer appended to the session first")
)

// ListOptions filters a listing. Cwd, when set, keeps sessions of that
// workspace only. Limit 0 means no limit.
type ListOptions struct {
	Cwd   string
	Limit int
}

// Store persists session headers and their append-only event lists.
//
// Append requires events[0].Seq to equal the number of events already
// stored (ErrSeqGap otherwise) and contiguous seqs within the batch. When
// durable is true the batch is on stable storage when Append returns;
// otherwise it may be buffered until the next durable Append or Sync.
// Implementations are safe for concurrent use: readers may Load while one
// writer appends. List returns the most recently updated sessions first.
type Store interface {
	Create(ctx context.Context, h Header) error
	Header(ctx context.Context, id string) (Header, error)
	Append(ctx context.Context, id string, events []Event, durable bool) error
	Load(ctx context.Context, id string) ([]Event, error)
	List(ctx context.Context, opts ListOptions) ([]Summary, error)
	Sync(ctx context.Context) error
	Close() error
}
