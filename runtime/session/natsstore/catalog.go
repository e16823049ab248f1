package natsstore

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/ptc-dev/ptc/runtime/session"
)

// RecordsBucket holds each session's listing record (session.Summary:
// title, status, settings, turns), rewritten by its writer at step and
// turn boundaries, so a listing reads one bucket and no log.
const RecordsBucket = "PTC_RECORDS"

// CatalogConfig configures OpenCatalog.
type CatalogConfig struct {
	Config
	// Holder names this process in the leases it takes (default
	// "ptc pid N on HOST").
	Holder string
	// LeaseTTL is how long a session stays taken after its holder stops
	// renewing (default 15 s). It is the leases bucket's TTL, set by the
	// process that makes the bucket; later ones use the bucket's.
	LeaseTTL time.Duration
	// LeaseLost, when set, is told when a held lease is lost (renewals
	// failed for a whole TTL, or another holder has it): the session's
	// writer should stop, as its appends will be refused.
	LeaseLost func(id string, why error)
}

// Catalog is session.Sessions on JetStream: the Store's stream and
// headers, the listing records, and a lease per running session.
type Catalog struct {
	store   *Store
	records jetstream.KeyValue
	leases  jetstream.KeyValue
	cfg     CatalogConfig
}

var _ session.Sessions = (*Catalog)(nil)

// OpenCatalog opens the store and the records and leases buckets on
// nc's server, making what is missing.
func OpenCatalog(ctx context.Context, nc *nats.Conn, cfg CatalogConfig) (*Catalog, error) {
	if cfg.LeaseTTL <= 0 {
		cfg.LeaseTTL = 15 * time.Second
	}
	if cfg.Holder == "" {
		host, _ := os.Hostname()
		cfg.Holder = fmt.Sprintf("ptc pid %d on %s", os.Getpid(), host)
	}
	st, err := Open(ctx, nc, cfg.Config)
	if err != nil {
		return nil, err
	}
	cfg.Config = st.cfg
	ctx, cancel := context.WithTimeout(ctx, st.cfg.Timeout)
	defer cancel()
	records, err := ensureKV(ctx, st.js, jetstream.KeyValueConfig{
		Bucket: RecordsBucket, Description: "ptc session listing records", History: 1,
		Storage: jetstream.FileStorage, Replicas: st.cfg.Replicas,
	})
	if err != nil {
		return nil, err
	}
	leases, err := ensureKV(ctx, st.js, jetstream.KeyValueConfig{
		Bucket: LeasesBucket, Description: "ptc session leases: who runs each session", History: 1,
		Storage: jetstream.FileStorage, Replicas: st.cfg.Replicas, TTL: cfg.LeaseTTL,
	})
	if err != nil {
		return nil, err
	}
	// The bucket's TTL is the lease's, whoever made it.
	if status, err := leases.Status(ctx); err == nil && status.TTL() > 0 {
		cfg.LeaseTTL = status.TTL()
	}
	return &Catalog{store: st, records: records, leases: leases, cfg: cfg}, nil
}

// LeaseTTL is how long a session stays taken after its holder stops
// renewing: the leases bucket's TTL, whoever made the bucket.
func (c *Catalog) LeaseTTL() time.Duration { return c.cfg.LeaseTTL }

// Store is the catalog's event store.
func (c *Catalog) Store() *Store { return c.store }

// Create implements session.Sessions: a new session (id, creation time
// and version filled in as session.Create does) whose lease this process
// holds.
func (c *Catalog) Create(ctx context.Context, h session.Header, opts session.LogOptions) (session.Held, error) {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	if h.ID == "" {
		r := opts.Rand
		if r == nil {
			r = rand.Reader
		}
		h.ID = session.NewID(now(), r)
	}
	if err := checkID(h.ID); err != nil {
		return nil, err
	}
	return c.own(ctx, h.ID, opts, func(lo session.LogOptions) (*session.Log, error) {
		return session.Create(ctx, c.store, h, lo)
	})
}

// Open implements session.Sessions: session id, with its lease. Like
// session.Open it does not repair an interrupted turn.
func (c *Catalog) Open(ctx context.Context, id string, opts session.LogOptions) (session.Held, error) {
	if _, err := c.store.record(ctx, id); err != nil {
		return nil, err
	}
	return c.own(ctx, id, opts, func(lo session.LogOptions) (*session.Log, error) {
		return session.Open(ctx, c.store, id, lo)
	})
}

func (c *Catalog) own(ctx context.Context, id string, opts session.LogOptions, open func(session.LogOptions) (*session.Log, error)) (session.Held, error) {
	l, err := acquire(ctx, c.leases, id, c.cfg.Holder, c.cfg.LeaseTTL, c.cfg.LeaseLost)
	if err != nil {
		return nil, err
	}
	tr := &recorder{kv: c.records, id: id}
	user := opts.OnEvent
	opts.OnEvent = func(e session.Event) {
		tr.observe(e)
		if user != nil {
			user(e)
		}
	}
	log, err := open(opts)
	if err != nil {
		l.release()
		return nil, err
	}
	if err := tr.start(session.SummaryOf(log.Header(), log.Events())); err != nil {
		l.release()
		return nil, err
	}
	return &held{log: log, lease: l, rec: tr}, nil
}

// held is a session this process writes.
type held struct {
	log   *session.Log
	lease *lease
	rec   *recorder
}

func (h *held) SessionLog() *session.Log { return h.log }

// Dir is "": followers subscribe to the session's subject.
func (h *held) Dir() string { return "" }

// Close makes the log durable, writes the final record and releases the
// lease.
func (h *held) Close() error {
	err := errors.Join(h.log.Sync(context.Background()), h.rec.close())
	return errors.Join(err, h.lease.release())
}

// Load implements session.Sessions: the log read and validated, without
// taking the session (readers never block its writer).
func (c *Catalog) Load(ctx context.Context, id string) (session.Loaded, error) {
	return session.LoadSession(ctx, c.store, id)
}

// Holder says who holds session id's lease now.
func (c *Catalog) Holder(ctx context.Context, id string) session.Holder {
	e, err := c.leases.Get(ctx, id)
	if err != nil {
		return session.Holder{}
	}
	var v leaseValue
	_ = json.Unmarshal(e.Value(), &v)
	return session.Holder{Live: true, By: v.Holder}
}

// List implements session.Sessions from the records, the leases and, for
// a session whose record its writer never finished while nobody holds it
// (a killed worker), from its log, healing the record.
func (c *Catalog) List(ctx context.Context, opts session.ListOptions) ([]session.Summary, error) {
	ctx, cancel := c.store.ctx(ctx)
	defer cancel()
	heads, err := c.store.allRecords(ctx)
	if err != nil {
		return nil, err
	}
	recs := map[string]session.Summary{}
	err = bucketValues(ctx, c.store.nc, c.records, RecordsBucket, func(key string, v []byte) {
		var s session.Summary
		if json.Unmarshal(v, &s) == nil && s.Header.ID == key {
			recs[key] = s
		}
	})
	if err != nil {
		return nil, fmt.Errorf("list the session records in %s: %w", RecordsBucket, err)
	}
	held := map[string]string{}
	err = bucketValues(ctx, c.store.nc, c.leases, LeasesBucket, func(key string, v []byte) {
		var l leaseValue
		_ = json.Unmarshal(v, &l)
		held[key] = l.Holder
	})
	if err != nil {
		return nil, fmt.Errorf("list the session leases in %s: %w", LeasesBucket, err)
	}
	var out []session.Summary
	for _, h := range heads {
		id := h.Header.ID
		s, ok := recs[id]
		by, live := held[id]
		if !live && (!ok || !s.Closed) {
			// No record, or one its writer never finished: the log has
			// the truth.
			if ld, lerr := c.Load(ctx, id); lerr == nil {
				s = session.SummaryOf(ld.Header, ld.Events)
				s.Closed = true
				_ = putRecord(ctx, c.records, s)
			} else if !ok {
				s = session.Summary{Header: h.Header, Settings: h.Header.Settings, Status: "unreadable: " + lerr.Error()}
			}
		}
		if live {
			s.Owner = session.Holder{Live: true, By: by}
		} else if s.Status == session.StatusRunning {
			s.Status = session.ReasonInterrupted
		}
		if opts.Cwd == "" || s.Settings.Workspace == opts.Cwd {
			out = append(out, s)
		}
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

// Resolve implements session.Sessions.
func (c *Catalog) Resolve(prefix string) (string, error) {
	heads, err := c.store.allRecords(context.Background())
	if err != nil {
		return "", err
	}
	var match []string
	for _, h := range heads {
		id := h.Header.ID
		if id == prefix {
			return id, nil
		}
		if prefix != "" && strings.HasPrefix(id, prefix) {
			match = append(match, id)
		}
	}
	sort.Strings(match)
	switch len(match) {
	case 0:
		return "", fmt.Errorf("session %s: %w", prefix, session.ErrNotFound)
	case 1:
		return match[0], nil
	}
	if len(match) > 5 {
		match = append(match[:5], "…")
	}
	return "", fmt.Errorf("%q is the start of several session ids (%s); give more of the id", prefix, strings.Join(match, ", "))
}

// recorder keeps a session's record in the records bucket up to date, as
// the Badger catalog's tracker keeps meta.json: folded from every event,
// written at step and turn boundaries and when the title appears.
type recorder struct {
	kv jetstream.KeyValue
	id string

	mu      sync.Mutex
	sum     session.Summary
	started bool
}

func (r *recorder) start(s session.Summary) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := putRecord(context.Background(), r.kv, s); err != nil {
		return err
	}
	r.sum, r.started = s, true
	return nil
}

func (r *recorder) observe(e session.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.started {
		return
	}
	untitled := r.sum.Title == ""
	r.sum.Add(e)
	switch e.Type {
	case session.TypeTurnStart, session.TypeTurnEnd, session.TypeStepEnd, session.TypeSettings:
	default:
		if !untitled || r.sum.Title == "" {
			return
		}
	}
	// Best effort: the record is derived from the log, and a listing
	// rebuilds one that was left behind.
	_ = putRecord(context.Background(), r.kv, r.sum)
}

func (r *recorder) close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.started {
		return nil
	}
	r.started = false
	r.sum.Closed = true
	return putRecord(context.Background(), r.kv, r.sum)
}

func putRecord(ctx context.Context, kv jetstream.KeyValue, s session.Summary) error {
	s.Owner = session.Holder{}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := kv.Put(ctx, s.Header.ID, b); err != nil {
		return fmt.Errorf("session %s: write its record: %w", s.Header.ID, err)
	}
	return nil
}
