package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/ptc-dev/ptc/runtime/checkpoint"
	"github.com/ptc-dev/ptc/runtime/session"
)

// CheckpointDir is where a session's checkpoints keep file bytes:
// <home>/checkpoints/<session id>, beside the spill directory and, unlike
// it, never mounted in the sandbox.
func (h *Home) CheckpointDir(id string) string { return filepath.Join(h.dir, "checkpoints", id) }

// checkpoints records what the session's turns change in its workspace
// (runtime/checkpoint): the sandbox tells it of every write before it
// happens, the feed of every turn's start and end. Finished turns'
// records wait in pending until the turn's runner appends them (the feed
// runs under the log's lock, where nothing may be appended).
type checkpoints struct {
	rec     *checkpoint.Recorder
	stop    func()
	mu      sync.Mutex
	pending []session.Checkpoint
}

// openCheckpoints starts recording the session's workspace. A workspace
// that cannot be opened leaves the session without checkpoints (nil),
// never without a session.
func (s *Session) openCheckpoints() {
	host, err := s.home.Host()
	if err != nil {
		return
	}
	ws := s.Settings().Workspace
	rec, err := checkpoint.NewRecorder(ws, checkpoint.Store{Dir: s.home.CheckpointDir(s.ID())}, 0)
	if err != nil {
		return
	}
	c := &checkpoints{rec: rec}
	unwatch := host.Watch(ws, rec.Touch)
	unsub := s.feed.subscribe(c.observe)
	c.stop = func() { unsub(); unwatch(); rec.Close() }
	s.checkpoints = c
}

func (c *checkpoints) observe(e session.Event) {
	switch e.Type {
	case session.TypeTurnStart:
		var d session.TurnStart
		if json.Unmarshal(e.Data, &d) == nil {
			c.rec.Begin(d.Turn)
		}
	case session.TypeTurnEnd:
		if cp, ok := c.rec.End(); ok {
			c.mu.Lock()
			c.pending = append(c.pending, cp)
			c.mu.Unlock()
		}
	}
}

// flushCheckpoints appends the records of the turns that ended.
func (s *Session) flushCheckpoints(ctx context.Context) error {
	c := s.checkpoints
	if c == nil {
		return nil
	}
	c.mu.Lock()
	pending := c.pending
	c.pending = nil
	c.mu.Unlock()
	for _, cp := range pending {
		if _, err := s.log.AppendDurable(ctx, session.TypeCheckpoint, cp); err != nil {
			return err
		}
	}
	return nil
}

func (s *Session) closeCheckpoints(ctx context.Context) error {
	if s.checkpoints == nil {
		return nil
	}
	err := s.flushCheckpoints(ctx)
	s.checkpoints.stop()
	return err
}

// RewindOptions choose what Rewind puts back.
type RewindOptions struct {
	// ToTurn is the turn to go back to before.
	ToTurn int
	// FilesOnly keeps the conversation; otherwise the rewound turns
	// leave the model's view too.
	FilesOnly bool
	// Force overwrites paths changed outside ptc since (conflicts) and
	// skips paths whose bytes were not kept (lost).
	Force bool
	// DryRun plans without changing anything.
	DryRun bool
}

// ErrRewindConflict is returned (wrapped, naming the paths) when a rewind
// would overwrite changes made outside ptc, or cannot put a file back.
var ErrRewindConflict = errors.New("rewind refused")

// Rewind puts the workspace (and unless FilesOnly the conversation) back
// to before turn opts.ToTurn and logs it as session/rewind. It runs
// between turns only (ErrBusy). The plan says what was (or, with DryRun,
// would be) done.
func (s *Session) Rewind(ctx context.Context, opts RewindOptions) (checkpoint.Plan, error) {
	if !s.turn.TryLock() {
		return checkpoint.Plan{}, ErrBusy
	}
	defer s.turn.Unlock()
	if err := s.flushCheckpoints(ctx); err != nil {
		return checkpoint.Plan{}, err
	}
	return rewindLog(ctx, s.log, s.Settings().Workspace, checkpoint.Store{Dir: s.home.CheckpointDir(s.ID())}, opts)
}

// rewindLog is Rewind on a log open for writing.
func rewindLog(ctx context.Context, log *session.Log, ws string, store checkpoint.Store, opts RewindOptions) (checkpoint.Plan, error) {
	h, err := checkpoint.Read(log.Events())
	if err != nil {
		return checkpoint.Plan{}, err
	}
	turn, ok := h.Find(opts.ToTurn)
	if !ok {
		return checkpoint.Plan{}, fmt.Errorf("the session has no turn %d (it has %d)", opts.ToTurn, len(h.Turns))
	}
	if !opts.FilesOnly && h.CompactedSince(turn.Seq) {
		return checkpoint.Plan{}, fmt.Errorf("the conversation was compacted after turn %d began: rewind the files only (--files-only)", opts.ToTurn)
	}
	root, err := os.OpenRoot(ws)
	if err != nil {
		return checkpoint.Plan{}, err
	}
	defer root.Close()
	plan, err := checkpoint.PlanRewind(h, root, store, opts.ToTurn)
	if err != nil {
		return plan, err
	}
	if !opts.Force && (len(plan.Conflicts) > 0 || len(plan.Lost) > 0) {
		return plan, refusal(plan)
	}
	if opts.DryRun {
		return plan, nil
	}
	files, applyErr := checkpoint.Apply(plan, root, store)
	rw := session.Rewind{ToTurn: opts.ToTurn, From: turn.Seq, FilesOnly: opts.FilesOnly, Files: files}
	if _, err := log.AppendDurable(ctx, session.TypeRewind, rw); err != nil {
		return plan, errors.Join(applyErr, err)
	}
	return plan, applyErr
}

func refusal(p checkpoint.Plan) error {
	var msg string
	if len(p.Conflicts) > 0 {
		msg = fmt.Sprintf("changed outside ptc since its last write (a rewind would overwrite them): %s", list(p.Conflicts))
	}
	if len(p.Lost) > 0 {
		if msg != "" {
			msg += "; "
		}
		msg += fmt.Sprintf("their earlier bytes were not kept (too large or past the session's cap): %s", list(p.Lost))
	}
	return fmt.Errorf("%w: %s", ErrRewindConflict, msg)
}

func list(paths []string) string {
	const most = 10
	out := ""
	for i, p := range paths {
		if i == most {
			return out + fmt.Sprintf(" and %d more", len(paths)-most)
		}
		if i > 0 {
			out += ", "
		}
		out += p
	}
	return out
}

// RewindSession is Rewind for a session no process has open: it takes
// the session as its writer (refused while another process holds it),
// repairs a turn a crash left open, rewinds and lets it go. It needs no
// model.
func RewindSession(ctx context.Context, home *Home, id string, opts RewindOptions) (checkpoint.Plan, error) {
	cat := home.Sessions()
	id, err := cat.Resolve(id)
	if err != nil {
		return checkpoint.Plan{}, err
	}
	held, err := cat.Open(ctx, id, session.LogOptions{})
	if err != nil {
		return checkpoint.Plan{}, err
	}
	log := held.SessionLog()
	if _, err := log.Repair(ctx); err != nil {
		return checkpoint.Plan{}, errors.Join(err, held.Close())
	}
	settings, err := session.CurrentSettings(log.Header(), log.Events())
	if err != nil {
		return checkpoint.Plan{}, errors.Join(err, held.Close())
	}
	plan, err := rewindLog(ctx, log, settings.Workspace, checkpoint.Store{Dir: home.CheckpointDir(id)}, opts)
	return plan, errors.Join(err, held.Close())
}

// History is the open session's SessionHistory.
func (s *Session) History(ctx context.Context) (checkpoint.History, checkpoint.Store, error) {
	if err := s.flushCheckpoints(ctx); err != nil {
		return checkpoint.History{}, checkpoint.Store{}, err
	}
	h, err := checkpoint.Read(s.log.Events())
	return h, checkpoint.Store{Dir: s.home.CheckpointDir(s.ID())}, err
}
