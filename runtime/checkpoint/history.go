package checkpoint

import (
	"encoding/json"
	"fmt"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Turn is one turn's record as the log holds it: the prompt that
// started it and what it changed.
type Turn struct {
	Turn    int
	Seq     int64 // of its turn/start
	Prompt  string
	Files   []session.FileChange
	Partial bool
}

// History is what a session's log says about its workspace changes.
type History struct {
	// Turns are every turn in log order, with the changes of those that
	// made any.
	Turns []Turn
	// last is, for every path ptc wrote, its state after ptc's latest
	// write (a turn's or a rewind's).
	last map[string]session.FileState
	// summaries are the seqs of compaction summaries (a conversation
	// rewind does not cross one).
	summaries []int64
}

// Read builds the history from a session's events. An event of its
// kinds that does not decode is an error naming its seq.
func Read(events []session.Event) (History, error) {
	h := History{last: map[string]session.FileState{}}
	index := map[int]int{} // turn → position in Turns
	promptOf := -1         // position of the turn whose prompt is still unseen
	for _, e := range events {
		var err error
		switch e.Type {
		case session.TypeTurnStart:
			var d session.TurnStart
			if err = json.Unmarshal(e.Data, &d); err == nil {
				index[d.Turn] = len(h.Turns)
				promptOf = len(h.Turns)
				h.Turns = append(h.Turns, Turn{Turn: d.Turn, Seq: e.Seq})
			}
		case session.TypeUserMessage:
			var d session.UserMessage
			if err = json.Unmarshal(e.Data, &d); err == nil {
				if d.Replaces != nil {
					h.summaries = append(h.summaries, e.Seq)
				} else if promptOf >= 0 && d.Source.Kind == "user" && len(d.Content) > 0 {
					h.Turns[promptOf].Prompt = d.Content[0].Text
					promptOf = -1
				}
			}
		case session.TypeCheckpoint:
			var d session.Checkpoint
			if err = json.Unmarshal(e.Data, &d); err == nil {
				if i, ok := index[d.Turn]; ok {
					h.Turns[i].Files = append(h.Turns[i].Files, d.Files...)
					h.Turns[i].Partial = h.Turns[i].Partial || d.Partial
				}
				h.wrote(d.Files)
			}
		case session.TypeRewind:
			var d session.Rewind
			if err = json.Unmarshal(e.Data, &d); err == nil {
				h.wrote(d.Files)
			}
		}
		if err != nil {
			return History{}, fmt.Errorf("event seq %d (%s): %w", e.Seq, e.Type, err)
		}
	}
	return h, nil
}

func (h *History) wrote(files []session.FileChange) {
	for _, f := range files {
		h.last[f.Path] = f.After
	}
}

// Find is the turn numbered n.
func (h History) Find(n int) (Turn, bool) {
	for _, t := range h.Turns {
		if t.Turn == n {
			return t, true
		}
	}
	return Turn{}, false
}

// Changed are the turns that changed files, in order.
func (h History) Changed() []Turn {
	var out []Turn
	for _, t := range h.Turns {
		if len(t.Files) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// CompactedSince reports whether a compaction summary was appended after
// seq (a conversation rewind to before it would drop what it summarises
// from earlier turns too).
func (h History) CompactedSince(seq int64) bool {
	for _, s := range h.summaries {
		if s > seq {
			return true
		}
	}
	return false
}
