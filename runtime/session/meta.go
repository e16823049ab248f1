package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ptc-dev/ptc/internal/clip"
)

// metaFile is the per-session record that serves listings without opening
// the session's store (which only its owner may do while it runs).
const metaFile = "meta.json"

// Session statuses in a listing besides the turn/end reasons.
const (
	StatusNew     = "new"     // no turn yet
	StatusRunning = "running" // a turn is open
)

// Summary is one row of a session listing. Header is the session as
// created and Settings the settings in force now; Title is the model's
// title (session/title) or, before one and without one, the first line
// of the first prompt. UpdatedAt is the latest event time (the
// header's CreatedAt before any event), which is what List orders by;
// Events is how many events are stored and Turns the last turn number.
// Status is StatusNew, StatusRunning or the last turn's end reason; Owner
// says whether a process has the session open now.
type Summary struct {
	Header    Header   `json:"header"`
	Settings  Settings `json:"settings"`
	Title     string   `json:"title,omitempty"`
	UpdatedAt int64    `json:"updatedAt"`
	Events    int64    `json:"events"`
	Turns     int      `json:"turns"`
	Status    string   `json:"status,omitempty"`
	Owner     Holder   `json:"owner"`
	// Closed is set by the owner's final record: a record without it
	// whose owner is gone may be behind the log (the owner was killed).
	Closed bool `json:"closed,omitempty"`
}

// titleMax bounds a title in bytes.
const titleMax = 80

// Add folds one event into s, which starts from a header: the listing
// record every catalog keeps up to date as a session's events arrive.
func (s *Summary) Add(e Event) {
	s.Events = e.Seq + 1
	if e.Time > s.UpdatedAt {
		s.UpdatedAt = e.Time
	}
	switch e.Type {
	case TypeTurnStart:
		var d TurnStart
		if json.Unmarshal(e.Data, &d) == nil {
			s.Turns, s.Status = d.Turn, StatusRunning
		}
	case TypeTurnEnd:
		var d TurnEnd
		if json.Unmarshal(e.Data, &d) == nil {
			s.Status = d.Reason
		}
	case TypeSettings:
		var d SettingsChange
		if json.Unmarshal(e.Data, &d) == nil {
			s.Settings = d.Settings
		}
	case TypeTitle:
		var d Title
		if json.Unmarshal(e.Data, &d) == nil {
			if t := titleOf(d.Title); t != "" {
				s.Title = t
			}
		}
	case TypeUserMessage:
		if s.Title != "" {
			return
		}
		var d UserMessage
		if json.Unmarshal(e.Data, &d) == nil && d.Source.Kind == "user" && len(d.Content) > 0 {
			s.Title = titleOf(d.Content[0].Text)
		}
	}
}

// newSummary is the summary of a session with no events yet.
func newSummary(h Header) Summary {
	return Summary{Header: h, Settings: h.Settings, UpdatedAt: h.CreatedAt, Status: StatusNew}
}

// SummaryOf folds a whole log into its listing record.
func SummaryOf(h Header, events []Event) Summary {
	s := newSummary(h)
	for _, e := range events {
		s.Add(e)
	}
	return s
}

// titleOf is the first non-blank line of a prompt, cut to titleMax bytes
// at a character boundary.
func titleOf(text string) string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		return clip.String(line, titleMax)
	}
	return ""
}

// writeMeta replaces dir's record atomically (a new file renamed over the
// old one), so a reader sees the old record or the new one, never half.
// It is not synced: the record is derived from the log and is rebuilt
// when the owner next opens the session.
func writeMeta(dir string, s Summary) error {
	s.Owner = Holder{}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, metaFile+".tmp"+strconv.Itoa(os.Getpid()))
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		os.Remove(tmp)
		return storeError(s.Header.ID, dir, "write the session's record", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, metaFile)); err != nil {
		os.Remove(tmp)
		return storeError(s.Header.ID, dir, "write the session's record", err)
	}
	return nil
}

// readMeta reads dir's record.
func readMeta(dir string) (Summary, error) {
	var s Summary
	b, err := os.ReadFile(filepath.Join(dir, metaFile))
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("%s: %w", filepath.Join(dir, metaFile), err)
	}
	return s, nil
}
