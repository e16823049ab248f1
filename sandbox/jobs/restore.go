package jobs

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Restore takes the jobs of earlier runs of the session from its events,
// before any job starts: they are listed as ended, and their output can
// still be read while the file is there. A job/start without a job/end
// is a job that was running when ptc died (killed with it: its sandbox
// could not outlive ptc); its job/end is recorded now, killed by
// ptc-exit. Numbering goes on after the highest id seen.
func (m *Manager) Restore(events []session.Event) error {
	var open []string
	m.mu.Lock()
	for _, e := range events {
		switch e.Type {
		case session.TypeJobStart:
			var d session.JobStart
			if err := json.Unmarshal(e.Data, &d); err != nil {
				m.mu.Unlock()
				return fmt.Errorf("job/start at seq %d is not valid: %w", e.Seq, err)
			}
			j := &job{info: Info{ID: d.JobID, Command: d.Command, Description: d.Description, Status: session.JobRunning,
				Started: time.UnixMilli(e.Time), Output: d.Output}, done: closedChan(), seen: true}
			if d.Output != "" {
				if f, err := os.Open(d.Output); err == nil {
					info, _ := f.Stat()
					j.log = &outputLog{path: d.Output, f: f, size: info.Size(), changed: make(chan struct{})}
				}
			}
			m.jobs[d.JobID] = j
			m.next = max(m.next, idNumber(d.JobID))
			open = append(open, d.JobID)
		case session.TypeJobEnd:
			var d session.JobEnd
			if err := json.Unmarshal(e.Data, &d); err != nil {
				m.mu.Unlock()
				return fmt.Errorf("job/end at seq %d is not valid: %w", e.Seq, err)
			}
			if j, ok := m.jobs[d.JobID]; ok {
				code := d.ExitCode
				j.info.Status, j.info.ExitCode, j.info.By, j.info.Note, j.info.OutputBytes = d.Status, &code, d.By, d.Note, d.OutputBytes
				j.info.Ended = time.UnixMilli(e.Time)
			}
		}
	}
	var cut []session.JobEnd
	for _, id := range open {
		j := m.jobs[id]
		if j.info.Status != session.JobRunning {
			continue
		}
		code, note := -1, "ptc ended while the job ran, and the job with it"
		var size int64
		if j.log != nil {
			size = j.log.size
		}
		j.info.Status, j.info.ExitCode, j.info.By, j.info.Note, j.info.OutputBytes = session.JobKilled, &code, session.EndedByExit, note, size
		cut = append(cut, session.JobEnd{JobID: id, Status: session.JobKilled, ExitCode: code, By: session.EndedByExit, Note: note, OutputBytes: size})
	}
	m.mu.Unlock()
	for _, end := range cut {
		if err := m.cfg.Record(session.TypeJobEnd, end); err != nil {
			return err
		}
	}
	return nil
}

func closedChan() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}
