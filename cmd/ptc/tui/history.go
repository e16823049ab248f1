package tui

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// History caps: what is kept in memory and when the file is rewritten.
const (
	historyKeep    = 500
	historyRewrite = 2000
	historyMaxFile = 4 << 20
)

// history is the input history of one workspace, newest last, stored as
// JSON lines (one string each, so multi-line inputs survive) in
// <home>/history/<hash of the workspace>.jsonl.
type history struct {
	path    string
	entries []string
	pos     int    // index being shown; len(entries) = the draft
	draft   string // what was typed before browsing
}

// loadHistory reads the workspace's history; a missing or unreadable
// file is an empty history (the session must start regardless).
func loadHistory(dir, workspace string) *history {
	h := &history{}
	if dir != "" {
		sum := sha256.Sum256([]byte(workspace))
		h.path = filepath.Join(dir, "history", hex.EncodeToString(sum[:8])+".jsonl")
	}
	h.read()
	h.pos = len(h.entries)
	return h
}

func (h *history) read() {
	if h.path == "" {
		return
	}
	b, err := os.ReadFile(h.path)
	if err != nil || len(b) > historyMaxFile {
		return
	}
	lines := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), historyMaxFile)
	for sc.Scan() {
		lines++
		var s string
		if json.Unmarshal(sc.Bytes(), &s) == nil && s != "" {
			h.entries = append(h.entries, s)
		}
	}
	if len(h.entries) > historyKeep {
		h.entries = h.entries[len(h.entries)-historyKeep:]
	}
	if lines > historyRewrite {
		h.rewrite()
	}
}

// rewrite keeps only the entries in memory (atomically: temp + rename).
func (h *history) rewrite() {
	var buf bytes.Buffer
	for _, e := range h.entries {
		line, _ := json.Marshal(e)
		buf.Write(append(line, '\n'))
	}
	tmp := h.path + ".tmp"
	if os.WriteFile(tmp, buf.Bytes(), 0o600) == nil {
		_ = os.Rename(tmp, h.path)
	}
}

// add records an input (not twice in a row) and resets browsing.
func (h *history) add(s string) {
	h.pos, h.draft = len(h.entries), ""
	if s == "" || len(h.entries) > 0 && h.entries[len(h.entries)-1] == s {
		return
	}
	h.entries = append(h.entries, s)
	h.pos = len(h.entries)
	if h.path == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(h.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	line, _ := json.Marshal(s)
	_, _ = f.Write(append(line, '\n'))
}

// prev steps back; cur is the text in the input, kept as the draft when
// browsing starts.
func (h *history) prev(cur string) (string, bool) {
	if h.pos == 0 {
		return "", false
	}
	if h.pos == len(h.entries) {
		h.draft = cur
	}
	h.pos--
	return h.entries[h.pos], true
}

// browsing reports whether cur is the recalled entry, unchanged: up and
// down then keep moving through the history even inside a multi-line
// entry.
func (h *history) browsing(cur string) bool {
	return h.pos < len(h.entries) && h.entries[h.pos] == cur
}

// next steps forward, back to the draft at the end.
func (h *history) next() (string, bool) {
	if h.pos >= len(h.entries) {
		return "", false
	}
	h.pos++
	if h.pos == len(h.entries) {
		return h.draft, true
	}
	return h.entries[h.pos], true
}

// search steps back to the next older entry holding query (ctrl+r): from
// the entry shown when browsing, else from the newest. The draft is kept
// as for prev, so down returns to it.
func (h *history) search(query, cur string) (string, bool) {
	if query == "" {
		return "", false
	}
	start := h.pos
	if !h.browsing(cur) {
		start = len(h.entries)
	}
	for i := start - 1; i >= 0; i-- {
		if strings.Contains(h.entries[i], query) {
			if h.pos == len(h.entries) {
				h.draft = cur
			}
			h.pos = i
			return h.entries[i], true
		}
	}
	return "", false
}
