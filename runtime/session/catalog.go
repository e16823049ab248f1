package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Catalog is the sessions of one home: one directory per session under
// <home>/sessions, each holding
//
//	log/        the session's own Badger store (opened only by its owner)
//	meta.json   the listing record, replaced atomically at step boundaries
//	owner       the lock file: exclusive lock + pid of the owner process
//	live.sock   the owner's read-only socket (see package live)
//
// Any number of sessions run at once from any number of processes; each
// has exactly one writer. Listing reads only meta.json and probes the
// lock, so it never opens a live session's store.
type Catalog struct {
	home string
	dir  string

	once     sync.Once // the migration check, once per catalog
	mu       sync.Mutex
	notices  []string
	progress func(string)
}

// SetProgress makes the catalog tell fn, as it happens, about slow work
// done once (the migration of an old store) and problems it works
// around, so that a person sees why the first command takes a while.
func (c *Catalog) SetProgress(fn func(string)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.progress = fn
}

func (c *Catalog) say(msg string) {
	c.mu.Lock()
	fn := c.progress
	c.mu.Unlock()
	if fn != nil {
		fn(msg)
	}
}

// Files of a session directory.
const (
	logDir     = "log"
	SocketName = "live.sock"
)

// NewCatalog is the catalog of home. It touches nothing on disk.
func NewCatalog(home string) *Catalog {
	return &Catalog{home: home, dir: StoreDir(home)}
}

// Dir is <home>/sessions.
func (c *Catalog) Dir() string { return c.dir }

// SessionDir is the directory of session id.
func (c *Catalog) SessionDir(id string) string { return filepath.Join(c.dir, id) }

// Owned is a session opened for writing by this process: its Log, its
// store and the lock that makes this process its only writer. Close it.
type Owned struct {
	*Log
	dir   string
	store *BadgerStore
	lock  *owner
	meta  *tracker
}

// Dir is the session's directory.
func (o *Owned) Dir() string { return o.dir }

// Close makes the log durable, writes the listing record, closes the
// store and releases the lock.
func (o *Owned) Close() error {
	err := errors.Join(o.Log.Sync(context.Background()), o.meta.close())
	if serr := o.store.Close(); serr != nil {
		// A store left open (a full disk, see BadgerStore.Close) stays
		// ours until the process exits: keep the lock, so that others are
		// told who holds the session rather than failing inside Badger.
		return errors.Join(err, serr)
	}
	return errors.Join(err, o.lock.release())
}

// Create starts a new session (filling ID, CreatedAt and Version as
// Create does) in its own directory, owned by this process.
func (c *Catalog) Create(ctx context.Context, h Header, opts LogOptions) (*Owned, error) {
	if err := c.prepare(); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	now := opts.Now()
	if h.ID == "" {
		h.ID = NewID(now, opts.Rand)
	}
	if h.CreatedAt == 0 {
		h.CreatedAt = now.UnixMilli()
	}
	if h.Version == 0 {
		h.Version = FormatVersion
	}
	if err := CheckHeader(h); err != nil {
		return nil, err
	}
	dir := c.SessionDir(h.ID)
	if err := os.Mkdir(dir, 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create session %s: %w", h.ID, ErrExists)
		}
		return nil, storeError(h.ID, dir, "create the session's directory", err)
	}
	o, err := c.own(ctx, dir, h.ID, opts, func(st *BadgerStore, lo LogOptions) (*Log, error) {
		return Create(ctx, st, h, lo)
	})
	if err != nil {
		// Nothing of the session was written: leave no empty husk.
		os.RemoveAll(dir)
		return nil, err
	}
	return o, nil
}

// Open continues session id (a full id; see Resolve) as its owner. A
// session another process has open fails with ErrLocked naming its pid.
// Like the package Open, it drops a torn tail and does not repair.
func (c *Catalog) Open(ctx context.Context, id string, opts LogOptions) (*Owned, error) {
	if err := c.prepare(); err != nil {
		return nil, err
	}
	dir, err := c.existing(id)
	if err != nil {
		return nil, err
	}
	return c.own(ctx, dir, id, opts.withDefaults(), func(st *BadgerStore, lo LogOptions) (*Log, error) {
		return Open(ctx, st, id, lo)
	})
}

// own locks dir, opens its store and the log (through open), and starts
// the listing record.
func (c *Catalog) own(ctx context.Context, dir, id string, opts LogOptions, open func(*BadgerStore, LogOptions) (*Log, error)) (*Owned, error) {
	lock, err := lockOwner(dir, id)
	if err != nil {
		return nil, err
	}
	st, err := openSessionStore(dir, id, false)
	if err != nil {
		lock.release()
		return nil, err
	}
	tr := &tracker{dir: dir}
	user := opts.OnEvent
	opts.OnEvent = func(e Event) {
		tr.observe(e)
		if user != nil {
			user(e)
		}
	}
	log, err := open(st, opts)
	if err != nil {
		st.Close()
		lock.release()
		return nil, err
	}
	if err := tr.start(SummaryOf(log.Header(), log.Events()), log.Events()); err != nil {
		st.Close()
		lock.release()
		return nil, err
	}
	return &Owned{Log: log, dir: dir, store: st, lock: lock, meta: tr}, nil
}

// existing returns the directory of session id, or ErrNotFound.
func (c *Catalog) existing(id string) (string, error) {
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." || strings.HasPrefix(id, ".") {
		return "", fmt.Errorf("session %q: %w", id, ErrNotFound)
	}
	dir := c.SessionDir(id)
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !st.IsDir()) {
		return "", fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return "", storeError(id, dir, "look at the session's directory", err)
	}
	return dir, nil
}

// Load reads session id without taking it over: the store is opened
// read-only and validated (see LoadSession). A session another process
// has open fails with ErrLocked: ask its owner (package live) instead.
func (c *Catalog) Load(ctx context.Context, id string) (Loaded, error) {
	return c.load(ctx, id, false)
}

// load is Load; heal also rewrites the session's listing record from
// what was read (while nobody else can open the session), so a record
// its owner never finished is rebuilt only once.
func (c *Catalog) load(ctx context.Context, id string, heal bool) (Loaded, error) {
	if err := c.migrate(); err != nil && !isFault(err) {
		return Loaded{}, err
	}
	dir, err := c.existing(id)
	if err != nil {
		return Loaded{}, err
	}
	rl, err := lockReader(dir, id)
	if err != nil {
		return Loaded{}, err
	}
	defer rl.release()
	st, err := openSessionStore(dir, id, true)
	if err != nil {
		return Loaded{}, err
	}
	defer st.Close()
	ld, err := LoadSession(ctx, st, id)
	if err == nil && heal {
		sum := SummaryOf(ld.Header, ld.Events)
		sum.Closed = true
		_ = writeMeta(dir, sum) // best effort: a read-only home keeps the old record
		var x findIndex
		_ = x.rebuild(dir, ld.Events)
	}
	return ld, err
}

// Holder says whether a process has session id open now, and which.
func (c *Catalog) Holder(id string) Holder { return holderOf(c.SessionDir(id)) }

// Resolve turns an id, or a prefix of exactly one id, into the id.
func (c *Catalog) Resolve(prefix string) (string, error) {
	if err := c.migrate(); err != nil && !isFault(err) {
		return "", err
	}
	ids, err := c.ids()
	if err != nil {
		return "", err
	}
	var match []string
	for _, id := range ids {
		if id == prefix {
			return id, nil
		}
		if prefix != "" && strings.HasPrefix(id, prefix) {
			match = append(match, id)
		}
	}
	switch len(match) {
	case 0:
		return "", fmt.Errorf("session %s: %w", prefix, ErrNotFound)
	case 1:
		return match[0], nil
	}
	if len(match) > 5 {
		match = append(match[:5], "…")
	}
	return "", fmt.Errorf("%q is the start of several session ids (%s); give more of the id", prefix, strings.Join(match, ", "))
}

// ids lists the session directories' names, sorted.
func (c *Catalog) ids() ([]string, error) {
	entries, err := os.ReadDir(c.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, storeError("", c.dir, "list the sessions", err)
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			ids = append(ids, e.Name())
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// listWorkers is how many session records List reads at once.
const listWorkers = 8

// List returns the sessions, most recently updated first, from their
// records. A session without a usable record is summarised from its
// store when no process has it open, else listed by id as running.
func (c *Catalog) List(ctx context.Context, opts ListOptions) ([]Summary, error) {
	if err := c.migrate(); err != nil && !isFault(err) {
		return nil, err
	}
	ids, err := c.ids()
	if err != nil {
		return nil, err
	}
	all := make([]Summary, len(ids))
	made := make([]bool, len(ids))
	// Each summary is a few small file operations; overlap them.
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(listWorkers, len(ids)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				all[i], made[i] = c.summary(ctx, ids[i])
			}
		}()
	}
	for i := range ids {
		work <- i
	}
	close(work)
	wg.Wait()
	out := make([]Summary, 0, len(ids))
	for i, s := range all {
		if made[i] && (opts.Cwd == "" || s.Settings.Workspace == opts.Cwd) {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return summaryBefore(out[i], out[j]) })
	if opts.Limit > 0 && len(out) > opts.Limit {
		out = out[:opts.Limit]
	}
	return out, nil
}

// Summary returns session id's listing record as List gives it (its
// owner, and its status read from the store when its record is behind).
// A session that was never created (see summary) is ErrNotFound, as
// Load and Open say.
func (c *Catalog) Summary(ctx context.Context, id string) (Summary, error) {
	if _, err := c.existing(id); err != nil {
		return Summary{}, err
	}
	s, made := c.summary(ctx, id)
	if !made {
		return Summary{}, fmt.Errorf("session %s was never created: %w", id, ErrNotFound)
	}
	return s, nil
}

// summary is session id's listing record; made is false for a directory
// whose store has no header and that no process holds: a creation killed
// before its header was written (Catalog.Create makes the directory
// first). Load and Open call that ErrNotFound, so listings leave it out
// instead of showing a session nothing can open; its listing record, if
// any, is not trusted over the store.
func (c *Catalog) summary(ctx context.Context, id string) (s Summary, made bool) {
	dir := c.SessionDir(id)
	holder := holderOf(dir)
	s, err := readMeta(dir)
	usable := err == nil && s.Header.ID == id
	if !usable {
		s = Summary{Header: Header{ID: id}, Status: StatusRunning}
	}
	if !holder.Live && (!usable || !s.Closed) {
		// No record, or one its owner never finished (it was killed):
		// the store, which nobody holds, has the truth.
		ld, lerr := c.load(ctx, id, true)
		switch {
		case lerr == nil:
			s = SummaryOf(ld.Header, ld.Events)
		case errors.Is(lerr, ErrNotFound):
			return Summary{}, false
		case !usable:
			s.Status = "unreadable: " + lerr.Error()
		}
	}
	s.Owner = holder
	if !holder.Live && s.Status == StatusRunning {
		s.Status = ReasonInterrupted
	}
	return s, true
}

// Remove deletes session id and everything in its directory. A session
// another process has open is refused with ErrLocked.
func (c *Catalog) Remove(id string) error {
	dir, err := c.existing(id)
	if err != nil {
		return err
	}
	lock, err := lockOwner(dir, id)
	if err != nil {
		return err
	}
	defer lock.release()
	if err := os.RemoveAll(dir); err != nil {
		return storeError(id, dir, "remove the session", err)
	}
	return nil
}

// prepare makes <home>/sessions (0700) for writing and moves a round-1
// single store found there into per-session directories (see
// migrate.go). Readers call migrate alone and go on when the home is not
// writable.
func (c *Catalog) prepare() error {
	if err := checkOwner(c.home); err != nil {
		return err
	}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return storeError("", c.dir, "create the sessions directory", err)
	}
	if err := checkOwner(c.dir); err != nil {
		return err
	}
	return c.migrate()
}

// openSessionStore opens the store of the session in dir, checked first.
func openSessionStore(dir, id string, readOnly bool) (*BadgerStore, error) {
	return OpenBadger(filepath.Join(dir, logDir), BadgerOptions{ReadOnly: readOnly, Session: id})
}
