package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// Defaults of Config.
const (
	DefaultMax         = 8        // jobs running at once in one session
	DefaultOutputLimit = 16 << 20 // output bytes kept per job
	DefaultReadLimit   = 16 << 10 // output bytes one job_output shows
	// killWait bounds how long Kill and Close wait for a killed job's
	// Run to return (the sandbox stops everything in milliseconds).
	killWait = 10 * time.Second
)

// Config sets up a Manager. It is copied by New and never changes.
type Config struct {
	// Max bounds the jobs running at once; 0 means DefaultMax.
	Max int
	// OutputLimit bounds the bytes kept of one job's output (the rest is
	// counted and dropped); 0 means DefaultOutputLimit.
	OutputLimit int64
	// ReadLimit bounds the new output one read returns (the rest stays
	// in the job's log file, which the read names); 0 means
	// DefaultReadLimit.
	ReadLimit int
	// Dir holds the jobs' output files (the session's spill directory,
	// which the sandbox mounts read-only for the session); "" means a
	// temporary directory removed by Close.
	Dir string
	// Record logs job/start and job/end (the session log); nil logs
	// nothing.
	Record func(typ string, data any) error
	// Now stamps start and end times; nil means time.Now.
	Now func() time.Time
}

// RunFunc runs a job's command to its end, writing its output to w. It
// returns the exit code and a note (a timeout, a sandbox remark). ctx
// ending means the job is killed: Run must stop the whole process tree
// and return. An error means the command could not run at all.
type RunFunc func(ctx context.Context, w io.Writer) (exitCode int, note string, err error)

// Spec is one job to start.
type Spec struct {
	Command     string
	Description string
	CallID      string
	Mode        string        // the sandbox mode it runs in, for the record
	Timeout     time.Duration // wall-clock cap; 0 means none
	Run         RunFunc
}

// Info is what job_list and job_output tell about a job.
type Info struct {
	ID          string    `json:"job_id"`
	Command     string    `json:"command"`
	Description string    `json:"description,omitempty"`
	Status      string    `json:"status"`
	ExitCode    *int      `json:"exit_code,omitempty"`
	By          string    `json:"ended_by,omitempty"`
	Note        string    `json:"note,omitempty"`
	Started     time.Time `json:"started"`
	Ended       time.Time `json:"-"`
	OutputBytes int64     `json:"output_bytes"`
	Output      string    `json:"output_file,omitempty"`
}

// job is one job of the Manager.
type job struct {
	info   Info
	log    *outputLog // nil for a job of an earlier run whose file is gone
	cancel context.CancelFunc
	done   chan struct{} // closed once Run returned and the end is recorded
	killBy string        // why it is being killed ("" while nobody kills it)
	reads  sync.Mutex    // one Read of the job at a time (each moves read)
	read   int64         // bytes of output the model has read
	line   int           // newlines in those bytes
	seen   bool          // the model saw its end (no notice needed)
	told   bool          // its notice was handed out
}

// Manager is the job table of one session. Safe for concurrent use.
type Manager struct {
	cfg    Config
	tmpDir string // Config.Dir was "": made by New, removed by Close

	mu     sync.Mutex
	jobs   map[string]*job
	next   int
	closed bool
}

// ErrClosed is returned by Start once the Manager is closed.
var ErrClosed = errors.New("jobs: the session is closing")

// New returns a Manager.
func New(cfg Config) (*Manager, error) {
	if cfg.Max <= 0 {
		cfg.Max = DefaultMax
	}
	if cfg.OutputLimit <= 0 {
		cfg.OutputLimit = DefaultOutputLimit
	}
	if cfg.ReadLimit <= 0 {
		cfg.ReadLimit = DefaultReadLimit
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Record == nil {
		cfg.Record = func(string, any) error { return nil }
	}
	m := &Manager{cfg: cfg, jobs: map[string]*job{}}
	if cfg.Dir == "" {
		dir, err := os.MkdirTemp("", "ptc-jobs-")
		if err != nil {
			return nil, err
		}
		m.cfg.Dir, m.tmpDir = dir, dir
	}
	return m, nil
}

// Start starts a job and records job/start. A session already running
// Config.Max jobs refuses with a tool failure naming them.
func (m *Manager) Start(spec Spec) (Info, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Info{}, ErrClosed
	}
	if running := m.runningLocked(); len(running) >= m.cfg.Max {
		return Info{}, tools.Errorf(tools.CodeToolFailed, "this session already runs %d background jobs (%s), the most it may; end one with job_kill first",
			len(running), strings.Join(running, ", "))
	}
	if err := os.MkdirAll(m.cfg.Dir, 0o700); err != nil {
		return Info{}, fmt.Errorf("jobs: the output directory: %w", err)
	}
	m.next++
	id := "job-" + strconv.Itoa(m.next)
	path := filepath.Join(m.cfg.Dir, id+".log")
	log, err := newOutputLog(path, m.cfg.OutputLimit)
	if err != nil {
		return Info{}, fmt.Errorf("jobs: the output file: %w", err)
	}
	j := &job{info: Info{ID: id, Command: spec.Command, Description: spec.Description, Status: session.JobRunning,
		Started: m.cfg.Now(), Output: path}, log: log, done: make(chan struct{})}
	start := session.JobStart{JobID: id, CallID: spec.CallID, Command: spec.Command, Description: spec.Description,
		Mode: spec.Mode, Output: path, TimeoutMS: spec.Timeout.Milliseconds()}
	if err := m.cfg.Record(session.TypeJobStart, start); err != nil {
		log.close()
		return Info{}, fmt.Errorf("jobs: recording the start: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if spec.Timeout > 0 {
		ctx, cancel = context.WithTimeout(context.Background(), spec.Timeout)
	}
	j.cancel = cancel
	m.jobs[id] = j
	go m.run(ctx, j, spec.Run)
	return j.info, nil
}

// run runs the job and records its end.
func (m *Manager) run(ctx context.Context, j *job, run RunFunc) {
	code, note, err := run(ctx, j.log)
	j.cancel()
	j.log.finish()
	size, _, dropped, _ := j.log.state()
	if dropped > 0 {
		note = joinNote(note, fmt.Sprintf("%d bytes of output past the %d-byte limit were dropped", dropped, m.cfg.OutputLimit))
	}
	if err != nil {
		code, note = 126, joinNote(note, err.Error())
	}
	m.mu.Lock()
	by := j.killBy
	if by == "" && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		by = session.EndedByTimeout
		note = joinNote(note, "its wall-clock cap was reached")
	}
	status := session.JobExited
	if by != "" {
		status = session.JobKilled
	}
	j.info.Status, j.info.ExitCode, j.info.By, j.info.Note, j.info.Ended, j.info.OutputBytes = status, &code, by, note, m.cfg.Now(), size
	m.mu.Unlock()
	_ = m.cfg.Record(session.TypeJobEnd, session.JobEnd{JobID: j.info.ID, Status: status, ExitCode: code, By: by, Note: note,
		OutputBytes: size, Tail: j.log.tail(tailBytes)})
	close(j.done)
}

// tailBytes bounds the output tail kept in job/end and shown in notices.
const tailBytes = 2 << 10

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// runningLocked lists the ids of running jobs. m.mu is held.
func (m *Manager) runningLocked() []string {
	var ids []string
	for id, j := range m.jobs {
		if j.info.Status == session.JobRunning {
			ids = append(ids, id)
		}
	}
	sortIDs(ids)
	return ids
}

// sortIDs orders job ids by number (job-2 before job-10).
func sortIDs(ids []string) {
	sort.Slice(ids, func(a, b int) bool { return idNumber(ids[a]) < idNumber(ids[b]) })
}

func idNumber(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "job-"))
	return n
}

// lookup finds a job; an unknown id is a tool failure listing the known.
func (m *Manager) lookup(id string) (*job, error) {
	if j, ok := m.jobs[id]; ok {
		return j, nil
	}
	ids := m.idsLocked()
	if len(ids) == 0 {
		return nil, tools.Errorf(tools.CodeToolFailed, "no job %q: this session has started none", id)
	}
	return nil, tools.Errorf(tools.CodeToolFailed, "no job %q; this session's jobs are %s", id, strings.Join(ids, ", "))
}

// infoLocked is j's Info with its current output size. m.mu is held.
func (j *job) infoLocked() Info {
	info := j.info
	if j.log != nil && info.Status == session.JobRunning {
		info.OutputBytes, _, _, _ = j.log.state()
	}
	return info
}

// List returns every job of the session, oldest first. Ended jobs it
// shows count as seen: no notice follows for them.
func (m *Manager) List() []Info {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := m.idsLocked()
	out := make([]Info, 0, len(ids))
	for _, id := range ids {
		j := m.jobs[id]
		if j.info.Status != session.JobRunning {
			j.seen = true
		}
		out = append(out, j.infoLocked())
	}
	return out
}

// Running returns the running jobs, oldest first (the TUI's status line
// and the "Pending jobs" lines).
func (m *Manager) Running() []Info {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Info
	for _, id := range m.runningLocked() {
		out = append(out, m.jobs[id].infoLocked())
	}
	return out
}

// Kill ends a running job and its whole process tree, waits for it, and
// returns how it ended; by is who killed it (session.EndedByModel or
// EndedByUser). Killing an ended job is no failure: it says how it
// ended.
func (m *Manager) Kill(id, by string) (Info, error) {
	m.mu.Lock()
	j, err := m.lookup(id)
	if err != nil {
		m.mu.Unlock()
		return Info{}, err
	}
	if j.info.Status == session.JobRunning && j.killBy == "" {
		j.killBy = by
		j.cancel()
	}
	m.mu.Unlock()
	if j.cancel != nil {
		select {
		case <-j.done:
		case <-time.After(killWait):
			return Info{}, fmt.Errorf("jobs: %s did not stop within %s of being killed", id, killWait)
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	j.seen = true
	return j.infoLocked(), nil
}

// Close kills every running job (recording each as killed by the
// session), waits for them, and refuses new ones. It is idempotent.
func (m *Manager) Close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	var waits []*job
	for _, j := range m.jobs {
		if j.info.Status == session.JobRunning && j.cancel != nil {
			if j.killBy == "" {
				j.killBy = session.EndedByClose
			}
			j.cancel()
			waits = append(waits, j)
		}
	}
	m.mu.Unlock()
	deadline := time.After(killWait)
	for _, j := range waits {
		select {
		case <-j.done:
		case <-deadline:
		}
	}
	m.mu.Lock()
	for _, j := range m.jobs {
		if j.log != nil {
			j.log.close()
		}
	}
	m.mu.Unlock()
	if m.tmpDir != "" {
		_ = os.RemoveAll(m.tmpDir)
	}
}
