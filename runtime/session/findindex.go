package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ptc-dev/ptc/internal/clip"
)

// findFile is a session's search index: one JSON line per searchable
// text of its log (FindEntry), so that searching a home's sessions reads
// small files instead of opening every session's store (see Search).
// The owner rewrites it when it opens the session and appends to it at
// the boundaries where it rewrites the listing record.
const findFile = "find.jsonl"

// Kinds of searchable text.
const (
	FindTitle   = "title"   // the session's title
	FindPrompt  = "prompt"  // a user's prompt
	FindAnswer  = "answer"  // the model's text in an answer
	FindCommand = "command" // a tool call: the command of bash-like tools, else name and arguments
)

// Bounds of the index: one text is cut to findEntryMax bytes, and a
// session's index stops growing at findIndexMax bytes (the start of a
// long session is what it is found by; session_read reads the rest).
const (
	findEntryMax = 2 << 10
	findIndexMax = 256 << 10
)

// FindEntry is one searchable text of a session: the event it comes from
// (Seq), what it is (Kind) and the text, cut to a bound.
type FindEntry struct {
	Seq  int64  `json:"seq"`
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// findEntryOf is the searchable text of e, if it has one.
func findEntryOf(e Event) (FindEntry, bool) {
	text, kind := "", ""
	switch e.Type {
	case TypeUserMessage:
		var d UserMessage
		if json.Unmarshal(e.Data, &d) != nil || d.Source.Kind != "user" || d.Replaces != nil {
			return FindEntry{}, false
		}
		text, kind = blocksText(d.Content), FindPrompt
	case TypeAssistantMessage:
		var d AssistantMessage
		if json.Unmarshal(e.Data, &d) != nil {
			return FindEntry{}, false
		}
		text, kind = d.Message.Content, FindAnswer
	case TypeToolCall:
		var d ToolCall
		if json.Unmarshal(e.Data, &d) != nil {
			return FindEntry{}, false
		}
		text, kind = commandText(d.Name, d.Arguments), FindCommand
	case TypeTitle:
		var d Title
		if json.Unmarshal(e.Data, &d) != nil {
			return FindEntry{}, false
		}
		text, kind = d.Title, FindTitle
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return FindEntry{}, false
	}
	return FindEntry{Seq: e.Seq, Kind: kind, Text: clip.String(text, findEntryMax)}, true
}

func blocksText(blocks []Block) string {
	var b strings.Builder
	for i, bl := range blocks {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(bl.Text)
	}
	return b.String()
}

// commandText is what a tool call is found by: the command of a call
// whose arguments have one (bash, shell) or the code of run_code, else
// the tool's name and its raw arguments.
func commandText(name, args string) string {
	var a struct {
		Command string `json:"command"`
		Code    string `json:"code"`
	}
	if json.Unmarshal([]byte(args), &a) == nil {
		if a.Command != "" {
			return a.Command
		}
		if a.Code != "" {
			return a.Code
		}
	}
	return name + " " + args
}

// findIndex is the owner's side of a session's index: what is on disk
// and what waits for the next boundary.
type findIndex struct {
	size    int
	pending []FindEntry
}

// add queues e's text, unless the index is full.
func (x *findIndex) add(e Event) {
	if en, ok := findEntryOf(e); ok && x.size < findIndexMax {
		x.pending = append(x.pending, en)
		x.size += len(en.Text) + 40
	}
}

// rebuild replaces dir's index with the texts of events (atomically, as
// the listing record).
func (x *findIndex) rebuild(dir string, events []Event) error {
	*x = findIndex{}
	for _, e := range events {
		x.add(e)
	}
	b := encodeFind(x.pending)
	x.pending = nil
	tmp := filepath.Join(dir, findFile+".tmp"+strconv.Itoa(os.Getpid()))
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, findFile)); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// flush appends the queued texts to dir's index. A crash between a
// boundary and its flush loses only those texts: the next open rebuilds
// the index from the log.
func (x *findIndex) flush(dir string) error {
	if len(x.pending) == 0 {
		return nil
	}
	f, err := os.OpenFile(filepath.Join(dir, findFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(encodeFind(x.pending))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	x.pending = nil
	return err
}

func encodeFind(entries []FindEntry) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, en := range entries {
		enc.Encode(en) // strings only: cannot fail
	}
	return b.Bytes()
}

// readFind reads dir's index. A line that does not decode (the torn end
// of a write cut short) is skipped; ok is false when there is no index.
func readFind(dir string) (entries []FindEntry, ok bool) {
	f, err := os.Open(filepath.Join(dir, findFile))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16*findEntryMax) // a text of escapes is 6 bytes a byte
	for sc.Scan() {
		var en FindEntry
		if json.Unmarshal(sc.Bytes(), &en) == nil && en.Kind != "" {
			entries = append(entries, en)
		}
	}
	return entries, true
}
