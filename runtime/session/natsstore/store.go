package natsstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Names on the server. Every process of a fleet must agree on them.
const (
	StreamName    = "PTC_EVENTS"   // the event log of every session
	subjectPrefix = "ptc.s."       // ptc.s.<session>.ev
	HeadsBucket   = "PTC_SESSIONS" // <session> → header and nonce, written once
)

// Config shapes the stream and buckets Open makes when the server has
// none (existing ones are used as they are). The zero value is one
// replica on file storage.
type Config struct {
	// Replicas of the stream and buckets: 1 on a single server, 3 (or 5)
	// on a cluster, where an acknowledged append is on a majority.
	Replicas int
	// Timeout bounds each request to the server; default 10 s.
	Timeout time.Duration
}

func (c Config) withDefaults() Config {
	if c.Replicas <= 0 {
		c.Replicas = 1
	}
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	return c
}

// Store is a session.Store on a JetStream server: one stream holds every
// session's events (a subject per session), a KV bucket their headers.
// Several processes on several machines may open stores on one server;
// each append is fenced on its session's last stored message, so of two
// writers racing for one seq exactly one wins and the other gets
// session.ErrConflict. See doc.go.
type Store struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	events jetstream.Stream
	heads  jetstream.KeyValue
	cfg    Config
	own    bool // Close closes nc

	mu     sync.RWMutex // held for reading by every operation, for writing by Close
	closed bool

	writeMu sync.Mutex // serialises appends (and guards tips)
	tips    map[string]*tipState
	// writer is this store's part of its message ids: a retry of its own
	// publish is a duplicate, another writer's message for the same seq
	// never is.
	writer string
}

// tipState is what a writer knows of a session's end: the message ids'
// nonce, the events stored, the stream sequence and id of the last
// message (what the next append must find there) and the latest event
// time.
type tipState struct {
	nonce   string
	count   int64
	last    uint64
	lastID  string // the last message's id
	updated int64
}

// headRecord is a session's entry in the heads bucket.
type headRecord struct {
	Header session.Header `json:"header"`
	// Nonce starts every message id of the session, so a session removed
	// and made again under the same id is not taken for a duplicate.
	Nonce string `json:"nonce"`
}

// Open makes the stream and bucket on nc's server if they are missing
// and returns a store on them. The caller keeps nc and closes it after the
// store.
func Open(ctx context.Context, nc *nats.Conn, cfg Config) (*Store, error) {
	cfg = cfg.withDefaults()
	js, err := jetstream.New(nc, jetstream.WithDefaultTimeout(cfg.Timeout))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	events, err := EnsureStream(ctx, js, jetstream.StreamConfig{
		Name:        StreamName,
		Description: "ptc session events: one subject per session, ptc.s.<id>.ev",
		Subjects:    []string{subjectPrefix + "*.ev"},
		Storage:     jetstream.FileStorage,
		Replicas:    cfg.Replicas,
		Retention:   jetstream.LimitsPolicy,
		Discard:     jetstream.DiscardNew,
		Duplicates:  2 * time.Minute,
		// Readers get whole logs, and listings every session's last
		// message, with batched direct gets.
		AllowDirect: true,
	})
	if err != nil {
		return nil, err
	}
	heads, err := ensureKV(ctx, js, jetstream.KeyValueConfig{
		Bucket: HeadsBucket, Description: "ptc session headers", History: 1,
		Storage: jetstream.FileStorage, Replicas: cfg.Replicas,
	})
	if err != nil {
		return nil, err
	}
	if info := events.CachedInfo(); info != nil {
		cfg.Replicas = info.Config.Replicas
	}
	var wb [6]byte
	if _, err := rand.Read(wb[:]); err != nil {
		return nil, err
	}
	return &Store{nc: nc, js: js, events: events, heads: heads, cfg: cfg, tips: map[string]*tipState{}, writer: hex.EncodeToString(wb[:])}, nil
}

// Replicas is how many copies the server keeps of the store's stream.
func (s *Store) Replicas() int { return s.cfg.Replicas }

// serverError says what could not be done on the server.
func serverError(what string, err error) error {
	return fmt.Errorf("JetStream: cannot %s: %w (is the server running with JetStream enabled, version 2.11 or later?)", what, err)
}

// idPattern is what a session id may be here: one subject token and one
// KV key (session.NewID's ids are).
var idPattern = regexp.MustCompile(`^[A-Za-z0-9_=-]+$`)

func checkID(id string) error {
	if !idPattern.MatchString(id) {
		return fmt.Errorf("session id %q cannot be kept in JetStream: use letters, digits, '-', '_' or '='", id)
	}
	return nil
}

func subject(id string) string { return subjectPrefix + id + ".ev" }

// begin takes the read side of the close lock.
func (s *Store) begin() (func(), error) {
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return nil, session.ErrClosed
	}
	return s.mu.RUnlock, nil
}

func (s *Store) ctx(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, s.cfg.Timeout)
}

// Create implements session.Store.
func (s *Store) Create(ctx context.Context, h session.Header) error {
	if err := session.CheckHeader(h); err != nil {
		return err
	}
	if err := checkID(h.ID); err != nil {
		return err
	}
	done, err := s.begin()
	if err != nil {
		return err
	}
	defer done()
	var nb [8]byte
	if _, err := rand.Read(nb[:]); err != nil {
		return err
	}
	rec, err := json.Marshal(headRecord{Header: h, Nonce: hex.EncodeToString(nb[:])})
	if err != nil {
		return err
	}
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	if _, err := s.heads.Create(ctx, h.ID, rec); err != nil {
		if errors.Is(err, jetstream.ErrKeyExists) {
			return fmt.Errorf("create session %s: %w", h.ID, session.ErrExists)
		}
		return fmt.Errorf("create session %s: %w", h.ID, err)
	}
	return nil
}

// record reads session id's entry in the heads bucket.
func (s *Store) record(ctx context.Context, id string) (headRecord, error) {
	var rec headRecord
	if checkID(id) != nil {
		return rec, fmt.Errorf("session %s: %w", id, session.ErrNotFound)
	}
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	e, err := s.heads.Get(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return rec, fmt.Errorf("session %s: %w", id, session.ErrNotFound)
	}
	if err != nil {
		return rec, fmt.Errorf("session %s: read its header: %w", id, err)
	}
	if err := json.Unmarshal(e.Value(), &rec); err != nil {
		return rec, fmt.Errorf("session %s: corrupt header in %s: %w", id, HeadsBucket, err)
	}
	return rec, nil
}

// Header implements session.Store.
func (s *Store) Header(ctx context.Context, id string) (session.Header, error) {
	done, err := s.begin()
	if err != nil {
		return session.Header{}, err
	}
	defer done()
	rec, err := s.record(ctx, id)
	return rec.Header, err
}

// lastMsg is the last message on session id's subject; nil when it has
// none.
func (s *Store) lastMsg(ctx context.Context, id string) (*jetstream.RawStreamMsg, error) {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	m, err := s.events.GetLastMsgForSubject(ctx, subject(id))
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("session %s: read its last event: %w", id, err)
	}
	return m, nil
}

// fetchTip reads session id's end from the server.
func (s *Store) fetchTip(ctx context.Context, id string) (*tipState, error) {
	rec, err := s.record(ctx, id)
	if err != nil {
		return nil, err
	}
	t := &tipState{nonce: rec.Nonce, updated: rec.Header.CreatedAt}
	m, err := s.lastMsg(ctx, id)
	if err != nil || m == nil {
		return t, err
	}
	count, updated, ok := tip(m.Header)
	if !ok {
		return nil, fmt.Errorf("session %s: its last message (stream seq %d) does not end an event: %w", id, m.Sequence, session.ErrCorrupt)
	}
	t.count, t.last, t.updated = count, m.Sequence, max64(t.updated, updated)
	t.lastID = m.Header.Get(nats.MsgIdHdr)
	return t, nil
}

// Sync implements session.Store: an append returns once the server has
// acknowledged it, so there is nothing left to sync.
func (s *Store) Sync(ctx context.Context) error {
	done, err := s.begin()
	if err != nil {
		return err
	}
	done()
	return nil
}

// Close implements session.Store. The connection is the caller's unless
// the store was made by Dial.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	if s.own {
		s.nc.Close()
	}
	return nil
}

// listWorkers is how many sessions List looks up at once when there are
// too many for one direct get.
const listWorkers = 8

// List implements session.Store: the headers from the bucket, each
// session's count and update time from its last message (one batched
// direct get for both while there are at most 1024 sessions).
func (s *Store) List(ctx context.Context, opts session.ListOptions) ([]session.Summary, error) {
	done, err := s.begin()
	if err != nil {
		return nil, err
	}
	defer done()
	recs, err := s.allRecords(ctx)
	if err != nil {
		return nil, err
	}
	var out []session.Summary
	for _, r := range recs {
		if opts.Cwd == "" || r.Header.Workspace == opts.Cwd {
			h := r.Header
			out = append(out, session.Summary{Header: h, Settings: h.Settings, UpdatedAt: h.CreatedAt})
		}
	}
	if err := s.tipsOf(ctx, out); err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].UpdatedAt != out[j].UpdatedAt {
			return out[i].UpdatedAt > out[j].UpdatedAt
		}
		return out[i].Header.ID > out[j].Header.ID
	})
	if opts.Limit > 0 && len(out) > opts.Limit {
		out = out[:opts.Limit]
	}
	return out, nil
}

// tipsOf fills in the event count and update time of each summary.
func (s *Store) tipsOf(ctx context.Context, sums []session.Summary) error {
	at := make(map[string]int, len(sums))
	for i, sum := range sums {
		at[subject(sum.Header.ID)] = i
	}
	set := func(i int, h nats.Header) {
		if n, upd, ok := tip(h); ok {
			sums[i].Events, sums[i].UpdatedAt = n, max64(upd, sums[i].Header.CreatedAt)
		}
	}
	lctx, cancel := s.ctx(ctx)
	err := lastPerSubject(lctx, s.nc, StreamName, subjectPrefix+"*.ev", func(m *nats.Msg) {
		if i, ok := at[m.Header.Get("Nats-Subject")]; ok {
			set(i, m.Header)
		}
	})
	cancel()
	if !errors.Is(err, errTooMany) {
		return err
	}
	errs := make([]error, len(sums))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(listWorkers, len(sums)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				m, err := s.lastMsg(ctx, sums[i].Header.ID)
				if err != nil || m == nil {
					errs[i] = err
					continue
				}
				set(i, m.Header)
			}
		}()
	}
	for i := range sums {
		work <- i
	}
	close(work)
	wg.Wait()
	return errors.Join(errs...)
}

// allRecords reads every entry of the heads bucket.
func (s *Store) allRecords(ctx context.Context) ([]headRecord, error) {
	ctx, cancel := s.ctx(ctx)
	defer cancel()
	var out []headRecord
	err := bucketValues(ctx, s.nc, s.heads, HeadsBucket, func(key string, v []byte) {
		var r headRecord
		if json.Unmarshal(v, &r) == nil && r.Header.ID == key {
			out = append(out, r)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("list the sessions in %s: %w", HeadsBucket, err)
	}
	return out, nil
}

// eachValue calls fn with every live key of kv and its value, from one
// pass over the bucket's stream.
func eachValue(ctx context.Context, kv jetstream.KeyValue, fn func(key string, v []byte)) error {
	w, err := kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return err
	}
	defer w.Stop()
	for {
		select {
		case e, ok := <-w.Updates():
			if !ok {
				return ctx.Err()
			}
			if e == nil {
				return nil // every current value has been seen
			}
			fn(e.Key(), e.Value())
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
