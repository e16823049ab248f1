package serve

import (
	"encoding/json"
	"net/http"

	"github.com/ptc-dev/ptc/internal/textdiff"
	"github.com/ptc-dev/ptc/runtime/session"
)

// diffContext is the unchanged lines shown around a change, as the TUI
// shows them.
const diffContext = 3

// Diff is a file-changing call's change as a unified diff, from the
// call's own arguments (edit: old and new text; write: the whole new
// file, shown as added).
type Diff struct {
	Path  string     `json:"path"`
	Whole bool       `json:"whole"`
	Hunks []DiffHunk `json:"hunks"`
}

// DiffHunk is one hunk: its @@ header and its lines, each with kind " ",
// "-" or "+".
type DiffHunk struct {
	Header string     `json:"header"`
	Lines  []DiffLine `json:"lines"`
}

// DiffLine is one line of a hunk.
type DiffLine struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// callDiff serves GET /v1/sessions/{id}/calls/{call}/diff.
func (s *Server) callDiff(w http.ResponseWriter, r *http.Request, id string) {
	var evs []session.Event
	if sv := s.served(id); sv != nil {
		evs = sv.sess.Events()
	} else {
		ld, err := s.cat().Load(r.Context(), id)
		if err != nil {
			failFor(w, err)
			return
		}
		evs = ld.Events
	}
	d, ok := diffOf(evs, r.PathValue("call"))
	if !ok {
		fail(w, http.StatusNotFound, "no_diff", "no file-changing call with that id in this session")
		return
	}
	writeJSON(w, http.StatusOK, d)
}

// diffOf finds call id (a direct call or a program's nested one) and
// diffs what its arguments change.
func diffOf(evs []session.Event, id string) (Diff, bool) {
	for _, e := range evs {
		var name, args string
		switch e.Type {
		case session.TypeToolCall:
			var d session.ToolCall
			if json.Unmarshal(e.Data, &d) != nil || d.CallID != id {
				continue
			}
			name, args = d.Name, d.Arguments
		case session.TypePtcDispatchStart:
			var d session.PtcDispatch
			if json.Unmarshal(e.Data, &d) != nil || d.SubCallID != id {
				continue
			}
			name, args = d.Name, d.Arguments
		default:
			continue
		}
		return editDiff(name, args)
	}
	return Diff{}, false
}

func editDiff(name, raw string) (Diff, bool) {
	var a map[string]any
	if json.Unmarshal([]byte(raw), &a) != nil {
		return Diff{}, false
	}
	str := func(k string) string {
		s, _ := a[k].(string)
		return s
	}
	d := Diff{Path: str("file_path"), Hunks: []DiffHunk{}}
	var before, after string
	switch {
	case name == "edit":
		before, after = str("old_string"), str("new_string")
	case name == "write":
		after, d.Whole = str("content"), true
	case name == "str_replace_editor" && str("command") == "str_replace":
		d.Path, before, after = str("path"), str("old_str"), str("new_str")
	case name == "str_replace_editor" && str("command") == "create":
		d.Path, after, d.Whole = str("path"), str("file_text"), true
	default:
		return Diff{}, false
	}
	ops := textdiff.Edits(textdiff.Lines(before), textdiff.Lines(after), textdiff.DefaultMaxEdits)
	for _, h := range textdiff.Unified(ops, diffContext) {
		hunk := DiffHunk{Header: h.Header()}
		for _, o := range h.Ops {
			hunk.Lines = append(hunk.Lines, DiffLine{Kind: string(o.Kind), Text: o.Text})
		}
		d.Hunks = append(d.Hunks, hunk)
	}
	return d, true
}
