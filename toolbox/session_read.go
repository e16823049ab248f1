package toolbox

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/live"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// SessionReadInput is session_read's input.
type SessionReadInput struct {
	SessionID string `json:"session_id"`
	FromSeq   int64  `json:"from_seq,omitempty"`
	Limit     int    `json:"limit,omitempty"`
}

// SessionReadOutput is session_read's value: a slice of a session's
// events as readable text, and where the next slice starts (NextSeq, 0
// at the end of the log).
type SessionReadOutput struct {
	SessionID string      `json:"session_id"`
	Title     string      `json:"title"`
	Created   string      `json:"created"`
	Events    []ReadEvent `json:"events"`
	Total     int64       `json:"total"`
	NextSeq   int64       `json:"next_seq,omitempty"`
}

// ReadEvent is one event as session_read shows it.
type ReadEvent struct {
	Seq  int64  `json:"seq"`
	Type string `json:"type"`
	Text string `json:"text"`
}

// Bounds of session_read: events per call by default and at most, the
// text of one event, and the text of one call.
const (
	readDefaultLimit = 40
	readMaxLimit     = 200
	readEventMax     = 2000
	readTotalMax     = 32 << 10
)

const sessionReadSchema = `{
	"type": "object",
	"properties": {
		"session_id": {"type": "string", "minLength": 1, "maxLength": 100, "description": "An id from session_search (or a unique start of one)."},
		"from_seq": {"type": "integer", "minimum": 0, "description": "The first event to show (default 0)."},
		"limit": {"type": "integer", "minimum": 1, "maximum": 200, "description": "At most this many events (default 40)."}
	},
	"required": ["session_id"],
	"additionalProperties": false
}`

const sessionReadOutSchema = `{"type": "object", "properties": {
	"session_id": {"type": "string"}, "title": {"type": "string"}, "created": {"type": "string"},
	"events": {"type": "array", "items": {"type": "object",
		"properties": {"seq": {"type": "integer"}, "type": {"type": "string"}, "text": {"type": "string"}},
		"required": ["seq", "type", "text"], "additionalProperties": false}},
	"total": {"type": "integer"}, "next_seq": {"type": "integer"}},
	"required": ["session_id", "title", "created", "events", "total"], "additionalProperties": false}`

// SessionRead returns session_read over cat: a readable slice of the
// events of one session of the calling session's workspace. A session of
// another workspace reads as not found.
func SessionRead(cat *session.Catalog) tools.Tool {
	return tools.New(agentSpec(SessionReadName, sessionReadSchema, sessionReadOutSchema),
		func(ctx context.Context, _ tools.Call, in SessionReadInput) (SessionReadOutput, error) {
			env := tools.EnvFrom(ctx)
			if cat == nil || env.Workspace == "" {
				return SessionReadOutput{}, errNoSessions
			}
			sum, err := workspaceSession(ctx, cat, env.Workspace, in.SessionID)
			if err != nil {
				return SessionReadOutput{}, err
			}
			h, events, _, err := live.Read(ctx, cat, sum.Header.ID)
			if err != nil {
				return SessionReadOutput{}, err
			}
			if h.Workspace != env.Workspace { // the record and the log disagree: trust the log
				return SessionReadOutput{}, notFound(in.SessionID)
			}
			return readSlice(sum, events, in), nil
		}, tools.Safe(), tools.WithRenderer(renderSessionRead))
}

// workspaceSession finds the session of workspace whose id is, or starts
// with, id. Only that workspace's sessions are looked at, so nothing of
// another project's (not even that an id exists) shows.
func workspaceSession(ctx context.Context, cat *session.Catalog, workspace, id string) (session.Summary, error) {
	list, err := cat.List(ctx, session.ListOptions{Cwd: workspace})
	if err != nil {
		return session.Summary{}, err
	}
	var match []session.Summary
	for _, s := range list {
		if s.Header.ID == id {
			return s, nil
		}
		if strings.HasPrefix(s.Header.ID, id) {
			match = append(match, s)
		}
	}
	switch len(match) {
	case 0:
		return session.Summary{}, notFound(id)
	case 1:
		return match[0], nil
	}
	return session.Summary{}, tools.Errorf(tools.CodeInvalidArgs, "%q is the start of %d session ids of this workspace; give the whole id", readable(id, 100), len(match))
}

func notFound(id string) error {
	return tools.Errorf(tools.CodeInvalidArgs, "no session %q in this workspace (session_search lists them)", readable(id, 100))
}

// readSlice is the events of in's range that say something (streamed
// chunks are left out: the message they make is there), each as text,
// within the bounds.
func readSlice(sum session.Summary, events []session.Event, in SessionReadInput) SessionReadOutput {
	limit := in.Limit
	if limit <= 0 {
		limit = readDefaultLimit
	}
	limit = min(limit, readMaxLimit)
	out := SessionReadOutput{SessionID: sum.Header.ID, Title: readable(sum.Title, 200), Events: []ReadEvent{},
		Created: time.UnixMilli(sum.Header.CreatedAt).UTC().Format(time.RFC3339), Total: int64(len(events))}
	size := 0
	for _, e := range events {
		if e.Seq < in.FromSeq || e.Type == session.TypeAssistantChunk {
			continue
		}
		if len(out.Events) == limit || size >= readTotalMax {
			out.NextSeq = e.Seq
			break
		}
		text := readable(eventText(e), readEventMax)
		size += len(text) + 40
		out.Events = append(out.Events, ReadEvent{Seq: e.Seq, Type: e.Type, Text: text})
	}
	return out
}

// eventText is what an event says, for a reader: the text of messages,
// a call's name and arguments, a result's content, else the event's data.
func eventText(e session.Event) string {
	switch e.Type {
	case session.TypeUserMessage:
		var d session.UserMessage
		if json.Unmarshal(e.Data, &d) == nil {
			return "[" + d.Source.Kind + "] " + blocks(d.Content)
		}
	case session.TypeAssistantMessage:
		var d session.AssistantMessage
		if json.Unmarshal(e.Data, &d) == nil {
			text := d.Message.Content
			for _, c := range d.Message.ToolCalls {
				text += "\n→ " + c.Name + " " + c.Arguments
			}
			return strings.TrimSpace(text)
		}
	case session.TypeToolCall:
		var d session.ToolCall
		if json.Unmarshal(e.Data, &d) == nil {
			return d.Name + " " + d.Arguments
		}
	case session.TypeToolResult:
		var d session.ToolResult
		if json.Unmarshal(e.Data, &d) == nil {
			if d.IsError {
				return d.Name + " failed: " + blocks(d.Content)
			}
			return d.Name + ": " + blocks(d.Content)
		}
	}
	return string(e.Data)
}

func blocks(bs []session.Block) string {
	var parts []string
	for _, b := range bs {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

func renderSessionRead(v any) string {
	out, ok := v.(SessionReadOutput)
	if !ok {
		return tools.RenderValue(v)
	}
	var b strings.Builder
	b.WriteString("session " + out.SessionID + " (" + out.Title + "), created " + out.Created + "\n")
	for _, e := range out.Events {
		b.WriteString("#" + seqText(e.Seq) + " " + e.Type + ": " + e.Text + "\n")
	}
	switch {
	case out.NextSeq > 0:
		b.WriteString("… more from from_seq " + seqText(out.NextSeq) + " (of " + seqText(out.Total) + " events).")
	case len(out.Events) == 0:
		b.WriteString("No events from there (the log has " + seqText(out.Total) + ").")
	default:
		b.WriteString("(end of the log)")
	}
	return b.String()
}

func seqText(n int64) string { return strconv.FormatInt(n, 10) }
