package jobs

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
)

// FromEvents lists the jobs a session's events record, oldest first: a
// job/start without a job/end shows as running (it is, or the ptc that
// ran it died and the next open records its end).
func FromEvents(events []session.Event) ([]Info, error) {
	byID, order, err := fromEvents(events)
	if err != nil {
		return nil, err
	}
	out := make([]Info, 0, len(order))
	for _, id := range order {
		out = append(out, byID[id])
	}
	return out, nil
}

func fromEvents(events []session.Event) (map[string]Info, []string, error) {
	byID := map[string]Info{}
	var order []string
	for _, e := range events {
		switch e.Type {
		case session.TypeJobStart:
			var d session.JobStart
			if err := json.Unmarshal(e.Data, &d); err != nil {
				return nil, nil, fmt.Errorf("job/start at seq %d is not valid: %w", e.Seq, err)
			}
			if _, dup := byID[d.JobID]; !dup {
				order = append(order, d.JobID)
			}
			byID[d.JobID] = Info{ID: d.JobID, Command: d.Command, Description: d.Description, Status: session.JobRunning,
				Started: time.UnixMilli(e.Time), Output: d.Output}
		case session.TypeJobEnd:
			var d session.JobEnd
			if err := json.Unmarshal(e.Data, &d); err != nil {
				return nil, nil, fmt.Errorf("job/end at seq %d is not valid: %w", e.Seq, err)
			}
			if i, ok := byID[d.JobID]; ok {
				code := d.ExitCode
				i.Status, i.ExitCode, i.By, i.Note, i.OutputBytes, i.Ended = d.Status, &code, d.By, d.Note, d.OutputBytes, time.UnixMilli(e.Time)
				byID[d.JobID] = i
			}
		}
	}
	return byID, order, nil
}

// Restore takes the jobs of earlier runs of the session from its events,
// before any job starts: they are listed as ended, and their output can
// still be read while the file is there. A job/start without a job/end
// is a job that was running when ptc died (killed with it: its sandbox
// could not outlive ptc); its job/end is recorded now, killed by
// ptc-exit. Numbering goes on after the highest id seen.
func (m *Manager) Restore(events []session.Event) error {
	byID, order, err := fromEvents(events)
	if err != nil {
		return err
	}
	var cut []session.JobEnd
	m.mu.Lock()
	for _, id := range order {
		j := &job{info: byID[id], done: closedChan(), seen: true}
		if j.info.Output != "" {
			if f, err := os.Open(j.info.Output); err == nil {
				if st, err := f.Stat(); err == nil {
					j.log = &outputLog{path: j.info.Output, f: f, size: st.Size(), changed: make(chan struct{})}
				} else {
					f.Close()
				}
			}
		}
		if j.info.Status == session.JobRunning {
			code, note := -1, "ptc ended while the job ran, and the job with it"
			if j.log != nil {
				j.info.OutputBytes = j.log.size
			}
			j.info.Status, j.info.ExitCode, j.info.By, j.info.Note = session.JobKilled, &code, session.EndedByExit, note
			cut = append(cut, session.JobEnd{JobID: id, Status: session.JobKilled, ExitCode: code, By: session.EndedByExit, Note: note, OutputBytes: j.info.OutputBytes})
		}
		m.jobs[id] = j
		m.next = max(m.next, idNumber(id))
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
