package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"syscall"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// killWhen starts `ptc run --output stream-json`, reads its events until
// one of type typ arrives, then kills it with SIGKILL. It returns the
// session id and the events seen before the kill.
func killWhen(t *testing.T, c *cli, typ string, args ...string) (string, []session.Event) {
	t.Helper()
	cmd := c.command(append([]string{"run", "--output", "stream-json"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var id string
	var seen []session.Event
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		var line struct {
			SessionID string `json:"session_id"`
			session.Event
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		id, seen = line.SessionID, append(seen, line.Event)
		if line.Type == typ {
			break
		}
	}
	if len(seen) == 0 || seen[len(seen)-1].Type != typ {
		cmd.Process.Kill()
		t.Fatalf("ptc ended before logging %s; saw %v", typ, types(seen))
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, stdout)
	cmd.Wait()
	return id, seen
}

// assertIntact checks that every durable event seen before the kill is in
// the stored log unchanged. Chunks are buffered, so only the events up to
// the last durable one must have survived.
func assertIntact(t *testing.T, seen, stored []session.Event) {
	t.Helper()
	for i, e := range seen {
		if e.Type == session.TypeAssistantChunk {
			continue
		}
		if i >= len(stored) || !sameEvent(stored[i], e) {
			t.Fatalf("event %d (%s) did not survive the crash intact", i, e.Type)
		}
	}
}

func TestResumeAfterSIGKILL(t *testing.T) {
	t.Run("mid-tool: the call is reported with an unknown outcome", func(t *testing.T) {
		srv := llmtest.NewServer(t,
			llmtest.Turn{ToolCalls: []llmtest.ToolCall{{ID: "call_slow", Name: "test_sleep", Arguments: `{"ms": 600000}`}}},
			llmtest.Turn{Text: "I will check before retrying."},
		)
		c := newCLI(t, "PTC_TEST_TOOLS=1")
		id, seen := killWhen(t, c, session.TypeToolCall, "--base-url", srv.URL, "--model", "m", "sleep for ten minutes")

		f := parseFinal(t, c.ok("run", "--resume", id, "--base-url", srv.URL, "--model", "m", "--output", "json", "continue"))
		if f.SessionID != id || f.Turn != 2 || f.Reason != session.ReasonCompleted {
			t.Fatalf("final = %+v", f)
		}
		s := c.show(id)
		assertIntact(t, seen, s.Events)
		result := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(s.Events, session.TypeToolResult)[0])
		if result.Error == nil || result.Error.Code != "TOOL_OUTCOME_UNKNOWN" || result.CallID != "call_slow" {
			t.Fatalf("repaired result = %+v", result)
		}
		ends := sessiontest.OfType(s.Events, session.TypeTurnEnd)
		if r := sessiontest.Decode[session.TurnEnd](t, ends[0]); r.Turn != 1 || r.Reason != session.ReasonInterrupted {
			t.Fatalf("first turn end = %+v", r)
		}
		starts := sessiontest.OfType(s.Events, session.TypeTurnStart)
		if r := sessiontest.Decode[session.TurnStart](t, starts[len(starts)-1]); r.Turn != 2 {
			t.Fatalf("turn numbering must continue, got turn %d", r.Turn)
		}
		resumed, err := srv.Requests()[1].Decode()
		if err != nil {
			t.Fatal(err)
		}
		m := resumed.Messages
		i := len(m) - 3 // …, assistant tool call, its repaired result, "continue"
		if i < 0 || m[i].Role != "assistant" || len(m[i].ToolCalls) != 1 || m[i+1].Role != "tool" || m[i+1].ToolCallID != "call_slow" {
			t.Fatalf("the resumed request must carry the call and its repaired result: %+v", m)
		}
	})

	t.Run("mid-stream: the open turn is closed as interrupted", func(t *testing.T) {
		srv := llmtest.NewServer(t,
			llmtest.Turn{Text: "I am in the middle of a long answer", Hang: true},
			llmtest.Turn{Text: "resumed"},
		)
		c := newCLI(t)
		id, seen := killWhen(t, c, session.TypeAssistantChunk, "--base-url", srv.URL, "--model", "m", "tell me a story")

		f := parseFinal(t, c.ok("run", "--resume", id, "--base-url", srv.URL, "--model", "m", "--output", "json", "continue"))
		if f.Turn != 2 || f.Text != "resumed" {
			t.Fatalf("final = %+v", f)
		}
		s := c.show(id)
		assertIntact(t, seen, s.Events)
		want := []string{"turn/start", "step/start", "user/message", "user/message", "request/header", "context/meter", "step/end", "turn/end",
			"turn/start", "step/start", "user/message", "request/header", "context/meter", "assistant/message", "step/end", "turn/end"}
		if got := types(s.Events); !reflect.DeepEqual(got, want) {
			t.Fatalf("events = %v\nwant %v", got, want)
		}
		if r := sessiontest.Decode[session.TurnEnd](t, sessiontest.OfType(s.Events, session.TypeTurnEnd)[0]); r.Reason != session.ReasonInterrupted {
			t.Fatalf("first turn end = %+v", r)
		}
		if h := sessiontest.Decode[session.RequestHeader](t, sessiontest.OfType(s.Events, session.TypeRequestHeader)[1]); h.Reason != "resume" {
			t.Fatalf("the resumed run must log a resume header, got %q", h.Reason)
		}
	})
}

// sameEvent compares events with their data compacted (show indents it).
func sameEvent(a, b session.Event) bool {
	var da, db bytes.Buffer
	if json.Compact(&da, a.Data) != nil || json.Compact(&db, b.Data) != nil {
		return false
	}
	return a.Seq == b.Seq && a.Type == b.Type && a.Time == b.Time && da.String() == db.String()
}
