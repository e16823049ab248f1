package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// Reply is one scripted model answer.
type Reply struct {
	Reasoning string
	Text      string
	ToolCalls []llm.ToolCall
	// Finish is "stop" (default) or "length" (cut off by the token limit).
	Finish string
	// Error, when set, makes this reply a failed attempt.
	Error *Failure
	// Delay is the pause between streamed chunks (and before an error).
	Delay time.Duration
	// Summary marks a reply that answers a summary request (a compaction
	// side request, see llm.IsSummaryRequest) instead of a step: summary
	// replies are consumed in order by summary requests only, the others
	// by the other requests only. Repeat makes a summary reply answer
	// every later summary request (the top-level "summary" of a file).
	Summary bool
	Repeat  bool
	// Title marks a reply that answers a title request (llm.IsTitleRequest,
	// see runtime/title) the same way: in order, apart from the steps;
	// with Repeat, every later one (the top-level "title" of a file).
	Title bool
	// Lane is the match of the agent lane the reply belongs to (see
	// agents.go); "" for the top-level replies.
	Lane string
}

// Failure is a scripted failed attempt. Kind defaults to the kind of
// Status (llm.KindForStatus); it may name a kind with no status, such as
// "timeout", "transport" or "empty-response".
type Failure struct {
	Status     int
	Kind       llm.ErrorKind
	Message    string
	RetryAfter time.Duration
}

// Parse reads a script. name is used in error messages (the file path);
// every error names the JSON path of the offending value. Tool calls
// without an id get call_<reply>_<n>, both counted from 1. A top-level
// "summary" reply comes last, marked Summary and Repeat.
func Parse(name string, data []byte) ([]Reply, error) {
	p := parser{name: name}
	top, err := p.object("", data, "replies", "description", "summary", "title", "agents")
	if err != nil {
		return nil, err
	}
	replies, err := p.replies(top)
	if err != nil {
		return nil, err
	}
	if raw, ok := top["summary"]; ok {
		r, err := p.reply("summary", len(replies), raw)
		if err != nil {
			return nil, err
		}
		if r.Error != nil || r.Text == "" {
			return nil, p.errf("summary", "must be a reply with a \"text\" (the summary the model answers)")
		}
		r.Summary, r.Repeat = true, true
		replies = append(replies, r)
	}
	if raw, ok := top["title"]; ok {
		r, err := p.reply("title", len(replies), raw)
		if err != nil {
			return nil, err
		}
		if r.Error == nil && r.Text == "" {
			return nil, p.errf("title", "must be a reply with a \"text\" (the title the model answers) or an \"error\"")
		}
		r.Title, r.Repeat = true, true
		replies = append(replies, r)
	}
	if raw, ok := top["agents"]; ok {
		lane, err := p.parseAgents(raw)
		if err != nil {
			return nil, err
		}
		replies = append(replies, lane...)
	}
	return replies, nil
}

func (p parser) replies(top map[string]json.RawMessage) ([]Reply, error) {
	raw, ok := top["replies"]
	if !ok {
		return nil, p.errf("", `needs a "replies" array`)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, p.errf("replies", "must be an array of replies")
	}
	if len(items) == 0 {
		return nil, p.errf("replies", "must contain at least one reply")
	}
	replies := make([]Reply, len(items))
	for i, item := range items {
		var err error
		if replies[i], err = p.reply(fmt.Sprintf("replies[%d]", i), i, item); err != nil {
			return nil, err
		}
	}
	return replies, nil
}

type parser struct{ name string }

func (p parser) errf(path, format string, args ...any) error {
	where := p.name
	if path != "" {
		where += ": " + path
	}
	return fmt.Errorf("script %s: %s", where, fmt.Sprintf(format, args...))
}

// object decodes an object, refusing keys outside allowed so that a typo
// ("tool_call") is an error instead of a silently ignored field.
func (p parser) object(path string, data []byte, allowed ...string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			line, col := position(data, syn.Offset-1) // Offset is just past the bad byte
			return nil, p.errf(path, "invalid JSON at line %d, column %d: %v", line, col, err)
		}
		return nil, p.errf(path, "must be a JSON object")
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(allowed, k) {
			return nil, p.errf(join(path, k), "unknown field (allowed: %s)", strings.Join(allowed, ", "))
		}
	}
	return m, nil
}

// reply reads the reply at path; i numbers its default call ids.
func (p parser) reply(path string, i int, data []byte) (Reply, error) {
	m, err := p.object(path, data, "reasoning", "text", "tool_calls", "finish", "error", "delay_ms", "summary", "title")
	if err != nil {
		return Reply{}, err
	}
	var r Reply
	if raw, ok := m["summary"]; ok && json.Unmarshal(raw, &r.Summary) != nil {
		return r, p.errf(join(path, "summary"), "must be true or false")
	}
	if raw, ok := m["title"]; ok && json.Unmarshal(raw, &r.Title) != nil {
		return r, p.errf(join(path, "title"), "must be true or false")
	}
	if err := p.str(path, m, "reasoning", &r.Reasoning); err != nil {
		return r, err
	}
	if err := p.str(path, m, "text", &r.Text); err != nil {
		return r, err
	}
	if err := p.str(path, m, "finish", &r.Finish); err != nil {
		return r, err
	}
	if r.Finish != "" && r.Finish != "stop" && r.Finish != "length" {
		return r, p.errf(join(path, "finish"), `must be "stop" or "length", not %q`, r.Finish)
	}
	ms, err := p.nonNegative(path, m, "delay_ms")
	if err != nil {
		return r, err
	}
	r.Delay = time.Duration(ms) * time.Millisecond
	if raw, ok := m["tool_calls"]; ok {
		if r.ToolCalls, err = p.toolCalls(i, join(path, "tool_calls"), raw); err != nil {
			return r, err
		}
	}
	if raw, ok := m["error"]; ok {
		if r.Text != "" || r.Reasoning != "" || len(r.ToolCalls) > 0 {
			return r, p.errf(join(path, "error"), "an error reply cannot also carry reasoning, text or tool calls")
		}
		if r.Error, err = p.failure(join(path, "error"), raw); err != nil {
			return r, err
		}
	}
	return r, nil
}

// defaultCallID names call n (from 0) of reply (from 0) that has no id:
// call_<reply>_<n>, both counted from 1, the same for files and New.
func defaultCallID(reply, n int) string { return fmt.Sprintf("call_%d_%d", reply+1, n+1) }

func (p parser) toolCalls(reply int, path string, data []byte) ([]llm.ToolCall, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, p.errf(path, "must be an array of tool calls")
	}
	calls := make([]llm.ToolCall, len(items))
	for n, item := range items {
		at := fmt.Sprintf("%s[%d]", path, n)
		m, err := p.object(at, item, "id", "name", "arguments")
		if err != nil {
			return nil, err
		}
		c := &calls[n]
		if err := p.str(at, m, "id", &c.ID); err != nil {
			return nil, err
		}
		if c.ID == "" {
			c.ID = defaultCallID(reply, n)
		}
		if err := p.str(at, m, "name", &c.Name); err != nil {
			return nil, err
		}
		if c.Name == "" {
			return nil, p.errf(join(at, "name"), "is required: the name of the tool to call")
		}
		if c.Arguments, err = p.arguments(join(at, "arguments"), m["arguments"]); err != nil {
			return nil, err
		}
	}
	return calls, nil
}

// arguments accepts an object (sent compacted) or a string (sent verbatim,
// so a script can send invalid JSON on purpose). Absent means "{}".
func (p parser) arguments(path string, raw json.RawMessage) (string, error) {
	if raw == nil {
		return "{}", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		return "", p.errf(path, "must be an object or a string")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return "", p.errf(path, "must be an object or a string")
	}
	return buf.String(), nil
}

var kinds = []llm.ErrorKind{llm.ErrRateLimit, llm.ErrServer, llm.ErrTimeout, llm.ErrTransport, llm.ErrEmpty,
	llm.ErrAuth, llm.ErrBadRequest, llm.ErrOther, llm.ErrContextOverflow, llm.ErrPayment, llm.ErrContentFilter, llm.ErrUnreachable}

func (p parser) failure(path string, data []byte) (*Failure, error) {
	m, err := p.object(path, data, "status", "kind", "message", "retry_after_ms")
	if err != nil {
		return nil, err
	}
	f := &Failure{}
	status, err := p.nonNegative(path, m, "status")
	if err != nil {
		return nil, err
	}
	f.Status = int(status)
	var kind string
	if err := p.str(path, m, "kind", &kind); err != nil {
		return nil, err
	}
	f.Kind = llm.ErrorKind(kind)
	switch {
	case kind != "" && !slices.Contains(kinds, f.Kind):
		return nil, p.errf(join(path, "kind"), "unknown kind %q", kind)
	case kind == "" && f.Status == 0:
		return nil, p.errf(path, `needs a "status" (such as 429 or 500) or a "kind" (such as "timeout")`)
	case kind == "":
		f.Kind = llm.KindForStatus(f.Status)
	}
	if err := p.str(path, m, "message", &f.Message); err != nil {
		return nil, err
	}
	ms, err := p.nonNegative(path, m, "retry_after_ms")
	if err != nil {
		return nil, err
	}
	f.RetryAfter = time.Duration(ms) * time.Millisecond
	return f, nil
}

func (p parser) str(path string, m map[string]json.RawMessage, key string, dst *string) error {
	raw, ok := m[key]
	if !ok {
		return nil
	}
	if json.Unmarshal(raw, dst) != nil {
		return p.errf(join(path, key), "must be a string")
	}
	return nil
}

// maxNumber keeps durations and statuses far from overflow.
const maxNumber = 1 << 31

func (p parser) nonNegative(path string, m map[string]json.RawMessage, key string) (int64, error) {
	raw, ok := m[key]
	if !ok {
		return 0, nil
	}
	var n int64
	if json.Unmarshal(raw, &n) != nil || n < 0 || n > maxNumber {
		return 0, p.errf(join(path, key), "must be a whole number between 0 and %d", int64(maxNumber))
	}
	return n, nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - bytes.LastIndexByte(before, '\n')
	return line, col
}
