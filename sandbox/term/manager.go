package term

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// DefaultMax bounds the terminals open at once in one session.
const DefaultMax = 4

// Config sets up a Manager. It is copied by NewManager.
type Config struct {
	// Max bounds the terminals open at once; 0 means DefaultMax.
	Max int
	// Record logs terminal/open and terminal/close; nil logs nothing.
	Record func(typ string, data any) error
}

// Info is what terminal_list tells about a terminal.
type Info struct {
	ID       string `json:"id"`
	Command  string `json:"command"`
	Status   string `json:"status"` // running, exited, closed
	ExitCode *int   `json:"exit_code,omitempty"`
	Cols     int    `json:"cols"`
	Rows     int    `json:"rows"`
}

// Terminal statuses.
const (
	StatusRunning = "running"
	StatusExited  = "exited" // the program ended; the terminal still shows its last screen
	StatusClosed  = "closed"
)

type entry struct {
	info  Info
	t     *Terminal // nil once closed, or for one of an earlier run
	ended bool      // terminal/close is recorded
}

// Manager is the terminal table of one session. Safe for concurrent use.
type Manager struct {
	cfg Config

	mu     sync.Mutex
	m      map[string]*entry
	next   int
	closed bool
}

// NewManager returns a Manager.
func NewManager(cfg Config) *Manager {
	if cfg.Max <= 0 {
		cfg.Max = DefaultMax
	}
	if cfg.Record == nil {
		cfg.Record = func(string, any) error { return nil }
	}
	return &Manager{cfg: cfg, m: map[string]*entry{}}
}

// OpenSpec is one terminal to open.
type OpenSpec struct {
	Command    string // what it runs, for the record and the listing
	CallID     string
	Mode       string
	Cols, Rows int // 0 means the defaults
	Start      StartFunc
}

// ErrClosed is returned by Open once the Manager is closed.
var ErrClosed = errors.New("term: the session is closing")

// Open starts a terminal and records terminal/open.
func (m *Manager) Open(spec OpenSpec) (Info, error) {
	cols, rows := spec.Cols, spec.Rows
	if cols == 0 {
		cols = DefaultCols
	}
	if rows == 0 {
		rows = DefaultRows
	}
	if cols < 10 || rows < 2 || cols > MaxCols || rows > MaxRows {
		return Info{}, tools.Errorf(tools.CodeInvalidArgs, "a terminal is 10 to %d columns and 2 to %d rows; %dx%d is not", MaxCols, MaxRows, cols, rows)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Info{}, ErrClosed
	}
	if open := m.openLocked(); len(open) >= m.cfg.Max {
		return Info{}, tools.Errorf(tools.CodeToolFailed, "this session already has %d terminals open (%s), the most it may; close one with terminal_close first",
			len(open), strings.Join(open, ", "))
	}
	m.next++
	id := "term-" + strconv.Itoa(m.next)
	rec := session.TerminalOpen{TerminalID: id, CallID: spec.CallID, Command: spec.Command, Mode: spec.Mode, Cols: cols, Rows: rows}
	if err := m.cfg.Record(session.TypeTerminalOpen, rec); err != nil {
		return Info{}, fmt.Errorf("term: recording the terminal: %w", err)
	}
	t, err := open(cols, rows, spec.Start)
	if err != nil {
		_ = m.cfg.Record(session.TypeTerminalClose, session.TerminalClose{TerminalID: id, ExitCode: -1, By: session.EndedByModel})
		return Info{}, err
	}
	e := &entry{info: Info{ID: id, Command: spec.Command, Status: StatusRunning, Cols: cols, Rows: rows}, t: t}
	m.m[id] = e
	go m.watch(e, t)
	return e.info, nil
}

// watch records the end of a program that exits by itself.
func (m *Manager) watch(e *entry, t *Terminal) {
	<-t.exited
	m.mu.Lock()
	if e.ended || e.t == nil {
		m.mu.Unlock()
		return
	}
	e.ended = true
	t.mu.Lock()
	code := t.exitCode
	t.mu.Unlock()
	e.info.Status, e.info.ExitCode = StatusExited, &code
	m.mu.Unlock()
	_ = m.cfg.Record(session.TypeTerminalClose, session.TerminalClose{TerminalID: e.info.ID, ExitCode: code})
}

// openLocked lists the terminals not closed. m.mu is held.
func (m *Manager) openLocked() []string {
	var ids []string
	for id, e := range m.m {
		if e.t != nil {
			ids = append(ids, id)
		}
	}
	sortIDs(ids)
	return ids
}

func sortIDs(ids []string) {
	sort.Slice(ids, func(a, b int) bool { return idNumber(ids[a]) < idNumber(ids[b]) })
}

func idNumber(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "term-"))
	return n
}

// get finds an open terminal; anything else is a tool failure.
func (m *Manager) get(id string) (*Terminal, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[id]
	switch {
	case ok && e.t != nil:
		return e.t, nil
	case ok:
		return nil, tools.Errorf(tools.CodeToolFailed, "terminal %s is closed; open a new one", id)
	}
	if open := m.openLocked(); len(open) > 0 {
		return nil, tools.Errorf(tools.CodeToolFailed, "no terminal %q; the open ones are %s", id, strings.Join(open, ", "))
	}
	return nil, tools.Errorf(tools.CodeToolFailed, "no terminal %q: none is open", id)
}

// Send types text and presses keys in terminal id.
func (m *Manager) Send(id, text string, keys []string) error {
	t, err := m.get(id)
	if err != nil {
		return err
	}
	if err := t.Send(text, keys); err != nil {
		return tools.Errorf(tools.CodeToolFailed, "terminal %s: %v", id, err)
	}
	return nil
}

// Read returns terminal id's screen (see Terminal.Read).
func (m *Manager) Read(ctx context.Context, id string, wait time.Duration) (Screen, error) {
	t, err := m.get(id)
	if err != nil {
		return Screen{}, err
	}
	return t.Read(ctx, wait), nil
}

// Signal sends the named signal (see Signals) to terminal id's
// foreground process group.
func (m *Manager) Signal(id, name string) error {
	sig, ok := Signals[strings.TrimPrefix(strings.ToUpper(name), "SIG")]
	if !ok {
		names := make([]string, 0, len(Signals))
		for n := range Signals {
			names = append(names, n)
		}
		sort.Strings(names)
		return tools.Errorf(tools.CodeInvalidArgs, "unknown signal %q; use one of %s", name, strings.Join(names, ", "))
	}
	t, err := m.get(id)
	if err != nil {
		return err
	}
	if err := t.Signal(sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return tools.Errorf(tools.CodeToolFailed, "terminal %s: %v", id, err)
	}
	return nil
}

// List returns every terminal of the session, oldest first.
func (m *Manager) List() []Info {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := make([]string, 0, len(m.m))
	for id := range m.m {
		ids = append(ids, id)
	}
	sortIDs(ids)
	out := make([]Info, 0, len(ids))
	for _, id := range ids {
		out = append(out, m.m[id].info)
	}
	return out
}

// Close closes terminal id, killing its program if it still runs, and
// returns how the program ended; by says who closed it.
func (m *Manager) Close(id, by string) (Info, error) {
	t, err := m.get(id)
	if err != nil {
		return Info{}, err
	}
	code := t.Close()
	m.mu.Lock()
	e := m.m[id]
	e.t = nil
	record := !e.ended
	e.ended = true
	e.info.Status, e.info.ExitCode = StatusClosed, &code
	info := e.info
	m.mu.Unlock()
	if record {
		_ = m.cfg.Record(session.TypeTerminalClose, session.TerminalClose{TerminalID: id, ExitCode: code, By: by})
	}
	return info, nil
}

// CloseAll closes every terminal (the session ends) and refuses new
// ones.
func (m *Manager) CloseAll() {
	m.mu.Lock()
	m.closed = true
	ids := m.openLocked()
	m.mu.Unlock()
	for _, id := range ids {
		_, _ = m.Close(id, session.EndedByClose)
	}
}

// Restore lists the terminals of earlier runs as closed and records the
// close of any that ptc's death left open. Numbering goes on after them.
func (m *Manager) Restore(events []session.Event) error {
	var open []string
	m.mu.Lock()
	for _, e := range events {
		switch e.Type {
		case session.TypeTerminalOpen:
			var d session.TerminalOpen
			if err := json.Unmarshal(e.Data, &d); err != nil {
				m.mu.Unlock()
				return fmt.Errorf("terminal/open at seq %d is not valid: %w", e.Seq, err)
			}
			m.m[d.TerminalID] = &entry{info: Info{ID: d.TerminalID, Command: d.Command, Status: StatusClosed, Cols: d.Cols, Rows: d.Rows}}
			m.next = max(m.next, idNumber(d.TerminalID))
			open = append(open, d.TerminalID)
		case session.TypeTerminalClose:
			var d session.TerminalClose
			if err := json.Unmarshal(e.Data, &d); err != nil {
				m.mu.Unlock()
				return fmt.Errorf("terminal/close at seq %d is not valid: %w", e.Seq, err)
			}
			if en, ok := m.m[d.TerminalID]; ok {
				code := d.ExitCode
				en.ended, en.info.ExitCode = true, &code
			}
		}
	}
	var cut []string
	for _, id := range open {
		if e := m.m[id]; !e.ended {
			e.ended = true
			code := -1
			e.info.ExitCode = &code
			cut = append(cut, id)
		}
	}
	m.mu.Unlock()
	for _, id := range cut {
		if err := m.cfg.Record(session.TypeTerminalClose, session.TerminalClose{TerminalID: id, ExitCode: -1, By: session.EndedByExit}); err != nil {
			return err
		}
	}
	return nil
}
