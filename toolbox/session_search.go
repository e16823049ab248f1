package toolbox

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// Names of the session query tools.
const (
	SessionSearchName = "session_search"
	SessionReadName   = "session_read"
)

// SessionSearchInput is session_search's input.
type SessionSearchInput struct {
	Query string `json:"query"`
	Limit int    `json:"limit,omitempty"`
}

// SessionSearchOutput is session_search's value: the sessions found, best
// first.
type SessionSearchOutput struct {
	Sessions []SessionHit `json:"sessions"`
}

// SessionHit is one session found: its id, title, last update (RFC 3339,
// UTC), where the best match is (event seq, -1 for the title; kind) and a
// snippet around it.
type SessionHit struct {
	SessionID string `json:"session_id"`
	Title     string `json:"title"`
	Updated   string `json:"updated"`
	Seq       int64  `json:"seq"`
	Kind      string `json:"kind"`
	Snippet   string `json:"snippet"`
}

const sessionSearchSchema = `{
	"type": "object",
	"properties": {
		"query": {"type": "string", "minLength": 1, "maxLength": 500, "description": "Words that must all appear (case-insensitive)."},
		"limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "At most this many sessions (default 10)."}
	},
	"required": ["query"],
	"additionalProperties": false
}`

const sessionSearchOutSchema = `{"type": "object", "properties": {"sessions": {"type": "array", "items": {
	"type": "object",
	"properties": {"session_id": {"type": "string"}, "title": {"type": "string"}, "updated": {"type": "string"},
		"seq": {"type": "integer"}, "kind": {"type": "string"}, "snippet": {"type": "string"}},
	"required": ["session_id", "title", "updated", "seq", "kind", "snippet"], "additionalProperties": false}}},
	"required": ["sessions"], "additionalProperties": false}`

// errNoSessions is the failure of a session query tool built without a
// home's sessions (ptc exec, ptc tools).
var errNoSessions = tools.Errorf(tools.CodeToolFailed, "earlier sessions can only be searched from a running session")

// SessionSearch returns session_search over cat: the earlier sessions of
// the calling session's workspace (never another workspace's, never the
// caller itself), read-only.
func SessionSearch(cat *session.Catalog) tools.Tool {
	return tools.New(agentSpec(SessionSearchName, sessionSearchSchema, sessionSearchOutSchema),
		func(ctx context.Context, _ tools.Call, in SessionSearchInput) (SessionSearchOutput, error) {
			env := tools.EnvFrom(ctx)
			if cat == nil || env.Workspace == "" {
				return SessionSearchOutput{}, errNoSessions
			}
			hits, err := cat.Search(ctx, in.Query, session.SearchOptions{Workspace: env.Workspace, Exclude: env.SessionID, Limit: in.Limit})
			if err != nil {
				return SessionSearchOutput{}, err
			}
			out := SessionSearchOutput{Sessions: make([]SessionHit, 0, len(hits))}
			for _, h := range hits {
				out.Sessions = append(out.Sessions, SessionHit{
					SessionID: h.Summary.Header.ID,
					Title:     readable(h.Summary.Title, 200),
					Updated:   time.UnixMilli(h.Summary.UpdatedAt).UTC().Format(time.RFC3339),
					Seq:       h.Seq, Kind: h.Kind,
					Snippet: readable(h.Snippet, 400),
				})
			}
			return out, nil
		}, tools.Safe(), tools.WithRenderer(renderHits))
}

// readable is text from a session log made fit for a tool result: valid
// UTF-8, without control characters but newline and tab and without
// invisible format characters (bidi overrides), cut to max bytes.
func readable(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || !(unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029') {
			return r
		}
		return -1
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return clip.String(s, max)
}

func renderHits(v any) string {
	out, ok := v.(SessionSearchOutput)
	if !ok {
		return tools.RenderValue(v)
	}
	if len(out.Sessions) == 0 {
		return "No earlier session of this workspace matches."
	}
	var b strings.Builder
	for _, h := range out.Sessions {
		fmt.Fprintf(&b, "%s  %s  %s\n  %s (seq %d): %s\n", h.SessionID, h.Updated, h.Title, h.Kind, h.Seq, h.Snippet)
	}
	b.WriteString("Read one with session_read {\"session_id\": …, \"from_seq\": …}.")
	return b.String()
}
