package session

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// BadgerOptions configures OpenBadger. The zero value opens read-write.
type BadgerOptions struct {
	// ReadOnly opens the store for reading only; several read-only opens
	// may share a store. Badger cannot attach a reader while a writer
	// process holds the store: that fails with ErrLocked. A store whose
	// last writer was killed is first recovered by a short read-write open
	// (Badger must replay its log); only if that is impossible does the
	// open fail, with ErrNeedsRecovery.
	ReadOnly bool
	// Session names the session the store belongs to in error messages
	// (one store per session); empty for a store of several.
	Session string
}

// BadgerStore is the on-disk Store. One process at a time may open a
// directory read-write; see doc.go for the key layout and durability.
type BadgerStore struct {
	dir      string
	readOnly bool

	mu     sync.RWMutex // held for reading by every operation, for writing by Close
	closed bool
	db     *badger.DB

	writeMu sync.Mutex // serialises Create, Append and Truncate
	written int64      // bytes appended since open: what Close may flush
}

// Sizes chosen for one small store per session, many of them open at
// once: a memtable costs up to its size in RAM and its write-ahead file
// twice its size on disk while the store is open; values above the
// threshold go to the value log. See RATIONALE.md for the measurements.
const (
	badgerMemTable       = 1 << 20
	badgerValueLogFile   = 16 << 20
	badgerValueThreshold = 32 << 10
	// chunkBytes bounds one Badger transaction of an Append (Badger refuses
	// a transaction above 15% of the memtable).
	chunkBytes  = 96 << 10
	chunkEvents = 1000
)

// OpenBadger opens (creating if needed, unless read-only) the store in dir.
// A directory in use by another process yields an error wrapping ErrLocked.
// The store's files are checked first (checkStoreFiles), so a damaged
// store is reported as ErrCorrupt and left untouched.
func OpenBadger(dir string, opts BadgerOptions) (*BadgerStore, error) {
	if err := checkStoreFiles(dir, opts.Session, opts.ReadOnly); err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil, fmt.Errorf("open session store %s read-only: no store there yet (%w)", dir, ErrNotFound)
		}
		return nil, err
	}
	if !opts.ReadOnly {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, storeError("", dir, "create the session store directory", err)
		}
	}
	if !opts.ReadOnly {
		if err := checkSpace(opts.Session, dir, 0); err != nil {
			return nil, err
		}
	}
	db, err := openDB(dir, opts.ReadOnly)
	if err != nil && opts.ReadOnly && errors.Is(err, ErrNeedsRecovery) {
		// The last writer was killed. Replay its log with a short
		// read-write open (possible only while no one else holds the
		// store), then attach read-only as asked.
		rw, rerr := openDB(dir, false)
		if rerr != nil {
			return nil, fmt.Errorf("%w (recovering it read-write also failed: %v)", err, rerr)
		}
		if cerr := rw.Close(); cerr != nil {
			return nil, fmt.Errorf("open session store %s: recover: %w", dir, cerr)
		}
		db, err = openDB(dir, true)
	}
	if err != nil {
		return nil, err
	}
	return &BadgerStore{dir: dir, readOnly: opts.ReadOnly, db: db}, nil
}

// openDB opens Badger with ptc's settings and maps its lock and recovery
// errors to ErrLocked and ErrNeedsRecovery.
func openDB(dir string, readOnly bool) (*badger.DB, error) {
	bo := badger.DefaultOptions(dir).
		WithLogger(nil).
		WithReadOnly(readOnly).
		WithMetricsEnabled(false).
		WithMemTableSize(badgerMemTable).
		WithNumMemtables(2).
		WithValueLogFileSize(badgerValueLogFile).
		WithValueThreshold(badgerValueThreshold).
		WithCompression(options.None).
		WithBlockCacheSize(0).
		WithIndexCacheSize(0).
		WithNumCompactors(2).
		WithNumGoroutines(1).
		WithChecksumVerificationMode(options.OnBlockRead).
		WithDetectConflicts(false)
	db, err := openRecovered(bo)
	switch {
	case err == nil:
		return db, nil
	case strings.Contains(err.Error(), "Cannot acquire directory lock"):
		return nil, lockedError(dir, readOnly)
	case readOnly && strings.Contains(err.Error(), "truncate required"):
		return nil, fmt.Errorf("open session store %s read-only: %w: its last writer was killed before closing it", dir, ErrNeedsRecovery)
	case isFault(err):
		return nil, storeError("", dir, "open the session store", err)
	}
	return nil, fmt.Errorf("open session store %s: %w (%w): the store's files are damaged; nothing was changed — move the directory aside (mv %s %s.damaged) and keep it for recovery", dir, ErrCorrupt, err, dir, dir)
}

// openRecovered is badger.Open with a panic inside it (Badger panics on
// some damaged files) turned into an error.
func openRecovered(bo badger.Options) (db *badger.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("badger: %s", firstLine(fmt.Sprint(r)))
		}
	}()
	return badger.Open(bo)
}

func lockedError(dir string, readOnly bool) error {
	if readOnly {
		return fmt.Errorf("open session store %s read-only: %w; Badger cannot attach a reader while a writer holds the store, so wait for the other ptc to exit and try again", dir, ErrLocked)
	}
	return fmt.Errorf("open session store %s: %w; wait for the other ptc to exit, or use a different --home", dir, ErrLocked)
}

// Dir returns the directory the store was opened on.
func (s *BadgerStore) Dir() string { return s.dir }

// begin takes the read side of the close lock; the caller must call the
// returned function when done.
func (s *BadgerStore) begin(write bool) (func(), error) {
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return nil, ErrClosed
	}
	if write && s.readOnly {
		s.mu.RUnlock()
		return nil, ErrReadOnly
	}
	if !write {
		return s.mu.RUnlock, nil
	}
	s.writeMu.Lock()
	return func() { s.writeMu.Unlock(); s.mu.RUnlock() }, nil
}

// Create implements Store.
func (s *BadgerStore) Create(ctx context.Context, h Header) error {
	if err := CheckHeader(h); err != nil {
		return err
	}
	done, err := s.begin(true)
	if err != nil {
		return err
	}
	defer done()
	if err := checkSpace(h.ID, s.dir, 4<<10); err != nil {
		return err
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("create session %s: %w", h.ID, err)
	}
	err = s.db.Update(func(txn *badger.Txn) error {
		if _, err := txn.Get(headerKey(h.ID)); err == nil {
			return fmt.Errorf("create session %s: %w", h.ID, ErrExists)
		} else if !errors.Is(err, badger.ErrKeyNotFound) {
			return err
		}
		m := meta{updatedAt: h.CreatedAt}
		if err := txn.Set(headerKey(h.ID), hb); err != nil {
			return err
		}
		return setMeta(txn, h, meta{count: -1}, m)
	})
	if err != nil {
		return err
	}
	return s.db.Sync()
}

// setMeta writes m and moves the index entries from old to m. old.count
// -1 means there are no index entries yet.
func setMeta(txn *badger.Txn, h Header, old, m meta) error {
	if old.count >= 0 && old.updatedAt != m.updatedAt {
		if err := txn.Delete(recentKey(old.updatedAt, h.ID)); err != nil {
			return err
		}
		if err := txn.Delete(workKey(h.Workspace, old.updatedAt, h.ID)); err != nil {
			return err
		}
	}
	if old.count < 0 || old.updatedAt != m.updatedAt {
		if err := txn.Set(recentKey(m.updatedAt, h.ID), nil); err != nil {
			return err
		}
		if err := txn.Set(workKey(h.Workspace, m.updatedAt, h.ID), nil); err != nil {
			return err
		}
	}
	return txn.Set(metaKey(h.ID), m.encode())
}

// Header implements Store.
func (s *BadgerStore) Header(ctx context.Context, id string) (Header, error) {
	done, err := s.begin(false)
	if err != nil {
		return Header{}, err
	}
	defer done()
	var h Header
	err = s.db.View(func(txn *badger.Txn) error {
		h, err = getHeader(txn, id)
		return err
	})
	return h, err
}

func getHeader(txn *badger.Txn, id string) (Header, error) {
	var h Header
	item, err := txn.Get(headerKey(id))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return h, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return h, err
	}
	err = item.Value(func(v []byte) error { return json.Unmarshal(v, &h) })
	if err != nil {
		return h, fmt.Errorf("session %s: corrupt header: %w", id, err)
	}
	return h, nil
}

func getMeta(txn *badger.Txn, id string) (meta, error) {
	item, err := txn.Get(metaKey(id))
	if err != nil {
		return meta{}, err
	}
	var m meta
	err = item.Value(func(v []byte) error {
		m, err = decodeMeta(v)
		return err
	})
	return m, err
}

// Append implements Store. A large batch is written in several Badger
// transactions; each leaves a contiguous prefix, so a crash in the middle
// loses only the tail of the batch.
func (s *BadgerStore) Append(ctx context.Context, id string, events []Event, durable bool) error {
	done, err := s.begin(true)
	if err != nil {
		return err
	}
	defer done()
	var h Header
	var m meta
	err = s.db.View(func(txn *badger.Txn) error {
		if h, err = getHeader(txn, id); err != nil {
			return err
		}
		m, err = getMeta(txn, id)
		return err
	})
	if err != nil {
		return err
	}
	if err := CheckBatch(id, m.count, events); err != nil {
		return err
	}
	need := batchBytes(events)
	if err := checkSpace(id, s.dir, need+s.tableBytes()); err != nil {
		return err
	}
	s.written += need
	for len(events) > 0 {
		n := chunkLen(events)
		if m, err = s.appendChunk(h, m, events[:n]); err != nil {
			return fmt.Errorf("append to session %s: %w", id, err)
		}
		events = events[n:]
	}
	if durable {
		return s.db.Sync()
	}
	return nil
}

// chunkLen is how many of events fit in one transaction.
func chunkLen(events []Event) int {
	size := 0
	for i, e := range events {
		v := len(e.Data)
		if v > badgerValueThreshold {
			v = 64 // stored in the value log; the transaction holds a pointer
		}
		size += v + len(e.Type) + 64
		if i > 0 && (size > chunkBytes || i >= chunkEvents) {
			return i
		}
	}
	return len(events)
}

func (s *BadgerStore) appendChunk(h Header, m meta, events []Event) (meta, error) {
	next := m
	for _, e := range events {
		next.count++
		if e.Time > next.updatedAt {
			next.updatedAt = e.Time
		}
	}
	err := s.db.Update(func(txn *badger.Txn) error {
		for _, e := range events {
			if err := txn.Set(eventKey(h.ID, e.Seq), encodeEvent(e)); err != nil {
				return err
			}
		}
		return setMeta(txn, h, m, next)
	})
	if err != nil {
		return m, err
	}
	return next, nil
}

// Load implements Store. An event record that cannot be unpacked comes
// back with an empty Type (see LoadSession for how that is judged).
func (s *BadgerStore) Load(ctx context.Context, id string) ([]Event, error) {
	done, err := s.begin(false)
	if err != nil {
		return nil, err
	}
	defer done()
	var events []Event
	err = s.db.View(func(txn *badger.Txn) error {
		if _, err := getHeader(txn, id); err != nil {
			return err
		}
		if m, err := getMeta(txn, id); err == nil {
			events = make([]Event, 0, m.count)
		}
		prefix := eventPrefix(id)
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: true, PrefetchSize: 100, Prefix: prefix})
		defer it.Close()
		for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
			item := it.Item()
			k := item.Key()
			if len(k) != len(prefix)+8 {
				continue
			}
			v, err := item.ValueCopy(nil)
			if err != nil {
				return err
			}
			seq := int64(binary.BigEndian.Uint64(k[len(prefix):]))
			events = append(events, decodeEvent(seq, v))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return events, nil
}

// List implements Store. It walks the recency (or workspace) index and
// never reads events.
func (s *BadgerStore) List(ctx context.Context, opts ListOptions) ([]Summary, error) {
	done, err := s.begin(false)
	if err != nil {
		return nil, err
	}
	defer done()
	prefix := []byte(prefixRecent)
	if opts.Cwd != "" {
		prefix = workPrefix(opts.Cwd)
	}
	var out []Summary
	err = s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
		defer it.Close()
		for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
			if opts.Limit > 0 && len(out) >= opts.Limit {
				break
			}
			k := it.Item().Key()
			if len(k) < len(prefix)+8 {
				continue
			}
			id := indexID(k, len(prefix))
			h, err := getHeader(txn, id)
			if err != nil {
				return err
			}
			m, err := getMeta(txn, id)
			if err != nil {
				return fmt.Errorf("session %s: %w", id, err)
			}
			out = append(out, Summary{Header: h, UpdatedAt: m.updatedAt, Events: m.count})
		}
		return nil
	})
	return out, err
}

// Sync implements Store: everything appended so far becomes durable.
func (s *BadgerStore) Sync(ctx context.Context) error {
	done, err := s.begin(false)
	if err != nil {
		return err
	}
	defer done()
	return s.db.Sync()
}

// Truncate implements Truncater: it deletes events n and above.
func (s *BadgerStore) Truncate(ctx context.Context, id string, n int64) error {
	done, err := s.begin(true)
	if err != nil {
		return err
	}
	defer done()
	if err := checkSpace(id, s.dir, 64<<10); err != nil {
		return err
	}
	err = s.db.Update(func(txn *badger.Txn) error {
		h, err := getHeader(txn, id)
		if err != nil {
			return err
		}
		m, err := getMeta(txn, id)
		if err != nil {
			return err
		}
		if n < 0 || n > m.count {
			return fmt.Errorf("truncate session %s to %d events: it has %d", id, n, m.count)
		}
		for seq := n; seq < m.count; seq++ {
			if err := txn.Delete(eventKey(id, seq)); err != nil {
				return err
			}
		}
		return setMeta(txn, h, m, meta{count: n, updatedAt: m.updatedAt})
	})
	if err != nil {
		return err
	}
	return s.db.Sync()
}

// tableBytes is the size of the store's tables: a compaction running in
// the background may write up to that much again before it deletes its
// inputs, so an append (and Close, which waits for compactions) wants that
// much room beyond the reserve. Measured on a 12 MB tmpfs: without it a
// compaction started near the reserve died of SIGBUS in CreateTable.
func (s *BadgerStore) tableBytes() int64 {
	var n int64
	for _, t := range s.db.Tables() {
		n += int64(t.OnDiskSize)
	}
	return n
}

// Close implements Store: it flushes and releases the directory lock.
func (s *BadgerStore) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	if !s.readOnly {
		// Closing flushes the memtable into a table: without room for it
		// Badger would die of SIGBUS (see space.go). Everything is synced
		// in the write-ahead file, which the next open replays, so leave
		// the store open until the process exits instead.
		if err := checkRoom("", s.dir, 2*min(s.written, badgerMemTable)+s.tableBytes()+1<<20); err != nil {
			return fmt.Errorf("%w (the store is left open until ptc exits: its events are safe in its write-ahead file, which the next open replays)", err)
		}
	}
	return s.db.Close()
}
