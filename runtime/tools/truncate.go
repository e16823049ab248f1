package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// truncate cuts text to about limit bytes: a head (about 60 %) and a tail
// (about 20 %) around a note that says how much was left out and where the
// full text was saved (spillDir/<callID>.txt) so the model can read the
// omitted lines with the read tool. Cuts fall on line boundaries when one
// is near, and never inside a UTF-8 sequence. The returned path is "" when
// nothing was saved.
func truncate(text string, limit int, spillDir, callID string) (string, string) {
	headEnd := lineCut(text, limit*3/5, true)
	tailStart := lineCut(text, len(text)-limit/5, false)
	if tailStart < headEnd {
		tailStart = headEnd
	}
	head, tail := text[:headEnd], text[tailStart:]
	totalLines := strings.Count(text, "\n") + 1
	firstOmitted := strings.Count(head, "\n") + 1
	lastOmitted := totalLines - strings.Count(tail, "\n")
	if tailStart > 0 && text[tailStart-1] == '\n' {
		lastOmitted-- // the tail begins a whole line: the one before it is the last omitted
	}

	path, saveErr := spill(text, spillDir, callID)
	var where string
	switch {
	case path != "":
		where = fmt.Sprintf("The full text (%d bytes, %d lines) is saved at %s; read the omitted part with the read tool, e.g. {\"file_path\": %q, \"offset\": %d, \"limit\": %d}.",
			len(text), totalLines, path, path, firstOmitted, min(400, lastOmitted-firstOmitted+1))
	case saveErr != nil:
		where = fmt.Sprintf("The full text could not be saved (%v).", saveErr)
	default:
		where = "The full text was not kept; narrow the request to see the omitted part."
	}
	note := fmt.Sprintf("\n[… %d bytes omitted (lines %d-%d of %d). %s …]\n",
		len(text)-len(head)-len(tail), firstOmitted, lastOmitted, totalLines, where)
	return head + note + tail, path
}

// lineCut moves a cut position to a nearby line boundary (within a quarter
// of the cut region), else to a rune boundary. For a head cut the text
// keeps [0, pos); for a tail cut it keeps [pos, len).
func lineCut(text string, pos int, head bool) int {
	pos = max(0, min(pos, len(text)))
	if head {
		if i := strings.LastIndexByte(text[:pos], '\n'); i >= 0 && pos-i <= pos/4 {
			return i + 1
		}
		for pos > 0 && pos < len(text) && !isRuneStart(text[pos]) {
			pos--
		}
		return pos
	}
	if i := strings.IndexByte(text[pos:], '\n'); i >= 0 && i <= (len(text)-pos)/4 {
		return pos + i + 1
	}
	for pos < len(text) && !isRuneStart(text[pos]) {
		pos++
	}
	return pos
}

// spill writes the full text under dir; ("", nil) when there is no dir.
func spill(text, dir, callID string) (string, error) {
	if dir == "" {
		return "", nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(dir, spillName(callID)+".txt")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		return "", err
	}
	return path, nil
}

// spillName keeps a call id usable as a file name ("c1:ptc:2" → "c1_ptc_2").
func spillName(id string) string {
	b := []byte(id)
	for i, c := range b {
		ok := c == '-' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !ok {
			b[i] = '_'
		}
	}
	s := strings.TrimLeft(string(b), ".")
	if s == "" {
		return "result"
	}
	return s
}

// Truncate is the Runner's truncation for tools that cap their own output
// (run_code caps its logs and result at its visible budget): text cut to
// about limit bytes around a note naming the file under spillDir that
// holds all of it (spillDir/<name>.txt; the returned path is "" when
// nothing was saved).
func Truncate(text string, limit int, spillDir, name string) (string, string) {
	if len(text) <= limit {
		return text, ""
	}
	return truncate(text, limit, spillDir, name)
}
