package prompt

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

func ev(t *testing.T, seq int64, typ string, data any) session.Event {
	t.Helper()
	raw, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return session.Event{Seq: seq, Type: typ, Data: raw}
}

func TestNextHeader(t *testing.T) {
	base := session.RequestHeader{Provider: "p", Model: "m", System: "sys",
		Tools: []llm.ToolSpec{{Name: "b", Parameters: json.RawMessage(`{"type":"object"}`)}, {Name: "a", Parameters: json.RawMessage(`{}`)}}}
	logged, _, _ := NextHeader(nil, true, base)
	withHeader := []session.Event{ev(t, 0, session.TypeRequestHeader, logged)}
	changed := base
	changed.System = "other"

	cases := []struct {
		name       string
		events     []session.Event
		firstOfRun bool
		want       session.RequestHeader
		reason     string
		appended   bool
	}{
		{"the first request of a new session is initial", nil, true, base, HeaderInitial, true},
		{"the first request of a resumed run is resume", withHeader, true, base, HeaderResume, true},
		{"an unchanged header is not appended again", withHeader, false, base, HeaderInitial, false},
		{"a changed system text is a change", withHeader, false, changed, HeaderChange, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, ok, err := NextHeader(c.events, c.firstOfRun, c.want)
			if err != nil {
				t.Fatal(err)
			}
			if ok != c.appended || h.Reason != c.reason {
				t.Fatalf("got (%q, %v), want (%q, %v)", h.Reason, ok, c.reason, c.appended)
			}
			if h.Tools[0].Name != "a" {
				t.Fatalf("tools must be sorted by name, got %v", h.Tools)
			}
		})
	}
}

func summary(from, to int64) session.UserMessage {
	return session.UserMessage{ID: "c1", Content: session.TextBlocks("summary"),
		Source: session.Source{Kind: "plugin", Name: "compaction", Form: "summary"}, Replaces: &session.SurfaceSpan{From: from, To: to}}
}

func TestSnapshotDue(t *testing.T) {
	ctx := Context{Sandbox: "workspace-write", Approval: "never", Workspace: "/w", Date: "2026-01-02"}
	text := ctx.Text()
	snap := session.UserMessage{ID: "s1", Content: session.TextBlocks(text), Source: SnapshotSource()}
	user := session.UserMessage{ID: "u1", Content: session.TextBlocks(text), Source: session.Source{Kind: "user"}}
	cases := []struct {
		name   string
		events []session.Event
		text   string
		due    bool
	}{
		{"the first snapshot is due", nil, text, true},
		{"an identical snapshot is not repeated", []session.Event{ev(t, 0, session.TypeUserMessage, snap)}, text, false},
		{"a changed context is due", []session.Event{ev(t, 0, session.TypeUserMessage, snap)}, text + "!", true},
		{"a user message with the same text is not a snapshot", []session.Event{ev(t, 0, session.TypeUserMessage, user)}, text, true},
		{"an empty context is never due", nil, "", false},
		{"a snapshot a compaction summary replaced is due again", []session.Event{
			ev(t, 0, session.TypeUserMessage, snap),
			ev(t, 1, session.TypeUserMessage, user),
			ev(t, 2, session.TypeUserMessage, summary(0, 1)),
		}, text, true},
		{"a snapshot after the summarised span stays", []session.Event{
			ev(t, 0, session.TypeUserMessage, user),
			ev(t, 1, session.TypeUserMessage, snap),
			ev(t, 2, session.TypeUserMessage, summary(0, 0)),
		}, text, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := SnapshotDue(c.events, c.text); got != c.due {
				t.Fatalf("SnapshotDue = %v, want %v", got, c.due)
			}
		})
	}
	t.Run("renders the snapshot text", func(t *testing.T) { golden(t, "snapshot.txt", text) })
}

func TestBuildRequest(t *testing.T) {
	t.Run("refuses a log without a header", func(t *testing.T) {
		if _, err := BuildRequest(nil); !errors.Is(err, ErrNoHeader) {
			t.Fatalf("err = %v, want ErrNoHeader", err)
		}
	})
	t.Run("projects the surface under the latest header", func(t *testing.T) {
		h := session.RequestHeader{Reason: HeaderInitial, Model: "m1", System: "s1"}
		h2 := session.RequestHeader{Reason: HeaderChange, Model: "m2", System: "s2"}
		events := []session.Event{
			ev(t, 0, session.TypeRequestHeader, h),
			ev(t, 1, session.TypeUserMessage, session.UserMessage{ID: "u", Content: session.TextBlocks("hi"), Source: session.Source{Kind: "user"}}),
			ev(t, 2, session.TypeAssistantMessage, session.AssistantMessage{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read", Arguments: `{"x":`}}}}),
			ev(t, 3, session.TypeToolResult, session.ToolResult{CallID: "c1", Name: "read", Content: session.TextBlocks("Error: bad"), IsError: true}),
			ev(t, 4, session.TypeAssistantMessage, session.AssistantMessage{Message: llm.Message{Role: llm.RoleAssistant}}),
			ev(t, 5, session.TypeRequestHeader, h2),
		}
		req, err := BuildRequest(events)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(req)
		want := `{"model":"m2","system":"s2","messages":[{"role":"user","content":"hi"},{"role":"assistant","toolCalls":[{"id":"c1","name":"read","arguments":"{\"x\":"}]},{"role":"tool","content":"Error: bad","toolCallId":"c1","name":"read"}],"options":{}}`
		if string(got) != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	})
}
