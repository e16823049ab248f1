package session

import "context"

// Sessions is a place sessions are kept, as the harness sees it: Catalog
// (a home's sessions, one Badger store each, on this machine) and
// natsstore.Catalog (one JetStream stream shared by many machines). The
// harness creates, continues, lists and reads every session through one,
// so a session runs the same wherever its log lives.
//
// Create and Open make the caller the session's one writer until it
// closes the Held: a second writer fails with ErrLocked naming the holder.
// Load reads without taking the session over; List reads the listing
// records; Resolve turns a unique id prefix into the id.
type Sessions interface {
	Create(ctx context.Context, h Header, opts LogOptions) (Held, error)
	Open(ctx context.Context, id string, opts LogOptions) (Held, error)
	Load(ctx context.Context, id string) (Loaded, error)
	List(ctx context.Context, opts ListOptions) ([]Summary, error)
	Resolve(prefix string) (string, error)
}

// Held is a session opened by its one writer. SessionLog is the log to
// append to; Dir is the session's directory on this machine (where the
// owner socket of package live goes), "" for a session that has none (its
// followers subscribe to the store instead). Close makes the log durable,
// writes the listing record and lets the session go.
type Held interface {
	SessionLog() *Log
	Dir() string
	Close() error
}

// Catalog's Sessions: Create and Open return *Owned.
type catalogSessions struct{ *Catalog }

// AsSessions is c behind the Sessions seam.
func (c *Catalog) AsSessions() Sessions { return catalogSessions{c} }

func (c catalogSessions) Create(ctx context.Context, h Header, opts LogOptions) (Held, error) {
	o, err := c.Catalog.Create(ctx, h, opts)
	if err != nil {
		return nil, err
	}
	return o, nil
}

func (c catalogSessions) Open(ctx context.Context, id string, opts LogOptions) (Held, error) {
	o, err := c.Catalog.Open(ctx, id, opts)
	if err != nil {
		return nil, err
	}
	return o, nil
}

// SessionLog is the session's log (Held).
func (o *Owned) SessionLog() *Log { return o.Log }
