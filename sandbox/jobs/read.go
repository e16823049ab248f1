package jobs

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
)

// MaxWait bounds job_output's wait_ms.
const MaxWait = 5 * time.Minute

// Output is what job_output returns: the job, and its output since the
// previous read.
type Output struct {
	Info
	// New is the output printed since the previous read (its last part
	// when there was more than one read shows; Omitted says how much
	// came before it, and Note where to read it).
	New     string `json:"output"`
	Omitted int64  `json:"omitted_bytes,omitempty"`
	Note    string `json:"output_note,omitempty"`
}

// Read returns the job's output printed since the previous read. With
// wait > 0 it first waits, up to wait, for new output or the job's end.
// tailLines > 0 keeps only the last lines of the new output. More new
// output than Config.ReadLimit shows its last part, and the note gives
// the lines of the log file that hold the rest (for the read tool).
// Reading the end of an ended job counts as seeing it.
func (m *Manager) Read(ctx context.Context, id string, wait time.Duration, tailLines int) (Output, error) {
	m.mu.Lock()
	j, err := m.lookup(id)
	m.mu.Unlock()
	if err != nil {
		return Output{}, err
	}
	// Two reads at once (a program's Promise.all) would both start from
	// the same offset and show the same output twice.
	j.reads.Lock()
	defer j.reads.Unlock()
	m.mu.Lock()
	log, from := j.log, j.read
	m.mu.Unlock()
	if log == nil {
		m.mu.Lock()
		defer m.mu.Unlock()
		j.seen = true
		return Output{Info: j.infoLocked(), Note: "the output of this job is no longer kept"}, nil
	}
	if wait > 0 {
		m.await(ctx, j, from, min(wait, MaxWait))
	}
	size, _, _, _ := log.state()
	b, err := log.readRange(from, size)
	if err != nil {
		return Output{}, fmt.Errorf("jobs: reading %s: %w", log.path, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	firstLine := j.line + 1
	j.read, j.line = from+int64(len(b)), j.line+bytes.Count(b, []byte{'\n'})
	out := Output{Info: j.infoLocked()}
	if out.Status != session.JobRunning {
		j.seen = true
	}
	shown := b
	if tailLines > 0 {
		shown = lastLines(shown, tailLines)
	}
	if len(shown) > m.cfg.ReadLimit {
		shown = shown[len(shown)-m.cfg.ReadLimit:]
		if i := bytes.IndexByte(shown, '\n'); i >= 0 && i < len(shown)-1 {
			shown = shown[i+1:]
		}
	}
	out.New = string(bytes.ToValidUTF8(shown, []byte("\uFFFD")))
	if omitted := int64(len(b) - len(shown)); omitted > 0 {
		lastOmitted := firstLine + bytes.Count(b[:omitted], []byte{'\n'}) - 1
		out.Omitted = omitted
		out.Note = fmt.Sprintf("%d earlier bytes of the new output (lines %d-%d of %s) are not shown; read them with the read tool", omitted, firstLine, max(lastOmitted, firstLine), log.path)
	}
	return out, nil
}

// await waits until the job printed past from, ended, wait passed or ctx
// ended.
func (m *Manager) await(ctx context.Context, j *job, from int64, wait time.Duration) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		size, _, _, changed := j.log.state()
		if size > from {
			return
		}
		select {
		case <-j.done:
			return
		case <-changed:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// lastLines keeps the last n lines of b (a final newline ends the last).
func lastLines(b []byte, n int) []byte {
	end := len(b)
	if end > 0 && b[end-1] == '\n' {
		end--
	}
	for i := end - 1; i >= 0; i-- {
		if b[i] == '\n' {
			n--
			if n == 0 {
				return b[i+1:]
			}
		}
	}
	return b
}

// Notice is the announcement of a job that ended by itself while nobody
// watched: the model learns of it at the next step boundary.
type Notice struct {
	Info
	Tail string
}

// Text is the notice as the model reads it.
func (n Notice) Text() string {
	var b strings.Builder
	code := 0
	if n.ExitCode != nil {
		code = *n.ExitCode
	}
	fmt.Fprintf(&b, "Background job %s (%s) %s with exit code %d.", n.ID, oneLine(n.Command, 120), n.Status, code)
	if n.Note != "" {
		fmt.Fprintf(&b, " %s.", n.Note)
	}
	if n.Tail == "" {
		b.WriteString(" It printed nothing.")
	} else {
		fmt.Fprintf(&b, " The end of its output:\n%s", strings.TrimRight(n.Tail, "\n"))
	}
	fmt.Fprintf(&b, "\nRead all of it with job_output {\"job_id\": %q}.", n.ID)
	return b.String()
}

// TakeNotices returns, once each, the jobs that ended since the last call
// without the model having seen their end (through job_output, job_list
// or job_kill) and without being killed, oldest first.
func (m *Manager) TakeNotices() []Notice {
	m.mu.Lock()
	var due []*job
	for _, id := range m.idsLocked() {
		j := m.jobs[id]
		if j.info.Status == session.JobExited && !j.seen && !j.told && j.log != nil {
			j.told = true
			due = append(due, j)
		}
	}
	m.mu.Unlock()
	out := make([]Notice, 0, len(due))
	for _, j := range due {
		m.mu.Lock()
		info := j.infoLocked()
		m.mu.Unlock()
		out = append(out, Notice{Info: info, Tail: lastTail(j.log.tail(tailBytes), noticeLines)})
	}
	return out
}

// noticeLines bounds the output lines a notice carries.
const noticeLines = 20

func lastTail(s string, n int) string { return string(lastLines([]byte(s), n)) }

// idsLocked lists every job id in order. m.mu is held.
func (m *Manager) idsLocked() []string {
	ids := make([]string, 0, len(m.jobs))
	for id := range m.jobs {
		ids = append(ids, id)
	}
	sortIDs(ids)
	return ids
}

// Pending returns one line per running job for the runtime context:
// the id, the command and when it started. The text changes only when
// a job starts or ends, so the snapshot it goes into stays put.
func (m *Manager) Pending() []string {
	var out []string
	for _, info := range m.Running() {
		out = append(out, fmt.Sprintf("%s: %s (started %s)", info.ID, oneLine(info.Command, 160), info.Started.Format("15:04:05")))
	}
	return out
}

// oneLine squeezes s into one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// Tail returns the last n bytes of a job's output (for a person's view:
// the model's reading position does not move).
func (m *Manager) Tail(id string, n int64) (string, error) {
	m.mu.Lock()
	j, err := m.lookup(id)
	m.mu.Unlock()
	if err != nil {
		return "", err
	}
	if j.log == nil {
		return "", nil
	}
	return j.log.tail(n), nil
}
