package main

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

func TestRunWithAScriptedModel(t *testing.T) {
	c := newCLI(t)
	f := parseFinal(t, c.ok("run", "--model", "script:"+examplePath(t, "hello.json"), "--output", "json", "hello"))
	if f.Reason != session.ReasonCompleted || f.Text == "" {
		t.Fatalf("final = %+v", f)
	}
	want := []string{"turn/start", "step/start", "user/message", "user/message", "request/header", "context/meter", "assistant/message", "step/end", "turn/end"}
	if got := types(c.show(f.SessionID).Events); !reflect.DeepEqual(got, want) {
		t.Fatalf("events = %v\nwant %v", got, want)
	}
}

func examplePath(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunAgainstAnOpenAICompatibleServer(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Turn{Reasoning: "I should wait a moment first.", ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "test_sleep", Arguments: `{"ms": 1}`}}},
		llmtest.Turn{Reasoning: "Done waiting.", Text: "I waited."},
	)
	c := newCLI(t, "PTC_TEST_TOOLS=1")
	out := c.ok("run", "--base-url", srv.URL, "--model", "some-model", "--output", "json", "wait a bit")
	f := parseFinal(t, out)
	if f.Text != "I waited." || f.Reason != session.ReasonCompleted || f.Turn != 1 {
		t.Fatalf("final = %+v", f)
	}

	s := c.show(f.SessionID)
	want := []string{"turn/start", "step/start", "user/message", "user/message", "request/header", "context/meter", "assistant/message",
		"tool/call", "tool/result", "step/end", "step/start", "context/meter", "assistant/message", "step/end", "turn/end"}
	if got := types(s.Events); !reflect.DeepEqual(got, want) {
		t.Fatalf("events = %v\nwant %v", got, want)
	}
	first := sessiontest.Decode[session.AssistantMessage](t, sessiontest.OfType(s.Events, session.TypeAssistantMessage)[0])
	if first.Message.Reasoning != "I should wait a moment first." || len(first.Message.ToolCalls) != 1 ||
		first.Message.ToolCalls[0].Arguments != `{"ms": 1}` {
		t.Fatalf("the split deltas were not assembled: %+v", first.Message)
	}
	result := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(s.Events, session.TypeToolResult)[0])
	if result.IsError || result.CallID != "call_1" {
		t.Fatalf("tool result = %+v", result)
	}

	second, err := srv.Requests()[1].Decode()
	if err != nil {
		t.Fatal(err)
	}
	n := len(second.Messages)
	asst, tool := second.Messages[n-2], second.Messages[n-1]
	if asst.Role != "assistant" || len(asst.ToolCalls) != 1 || asst.ToolCalls[0].ID != "call_1" ||
		tool.Role != "tool" || tool.ToolCallID != "call_1" {
		t.Fatalf("the second request must end with the assistant tool call then its role:tool result: %+v", second.Messages)
	}
}

func TestSessionsListAndExport(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Turn{Text: "hello"})
	c := newCLI(t)
	f := parseFinal(t, c.ok("run", "--base-url", srv.URL, "--model", "m", "--output", "json", "hello"))

	var list []session.Summary
	if err := json.Unmarshal([]byte(c.ok("sessions", "--output", "json")), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Header.ID != f.SessionID {
		t.Fatalf("sessions = %+v", list)
	}
	if text := c.ok("sessions"); !strings.Contains(text, f.SessionID) {
		t.Fatalf("the text listing must name the session:\n%s", text)
	}
	lines := 0
	sc := bufio.NewScanner(strings.NewReader(c.ok("session", "export", f.SessionID)))
	for sc.Scan() {
		var e session.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Seq != int64(lines) {
			t.Fatalf("line %d is not event %d: %s", lines, lines, sc.Text())
		}
		lines++
	}
	if lines != len(c.show(f.SessionID).Events) {
		t.Fatalf("export printed %d events", lines)
	}
}

func TestStreamJSONCarriesTheSessionID(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Turn{Text: "streamed answer"})
	c := newCLI(t)
	out := c.ok("run", "--base-url", srv.URL, "--model", "m", "--output", "stream-json", "hi")
	var id string
	var seen []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e struct {
			SessionID string `json:"session_id"`
			Type      string `json:"type"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil || e.SessionID == "" {
			t.Fatalf("line without session_id: %s", line)
		}
		id, seen = e.SessionID, append(seen, e.Type)
	}
	if seen[0] != "turn/start" || seen[len(seen)-1] != "turn/end" || len(seen) != len(c.show(id).Events) {
		t.Fatalf("stream = %v", seen)
	}
}

func TestARateLimitIsRetried(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Turn{Status: 429, Message: "slow down"}, llmtest.Turn{Text: "ok now"})
	c := newCLI(t, "PTC_TEST_RETRY_DELAY=1ms")
	f := parseFinal(t, c.ok("run", "--base-url", srv.URL, "--model", "m", "--output", "json", "hi"))
	s := c.show(f.SessionID)
	attempts, retries := sessiontest.OfType(s.Events, session.TypeAssistantAttempt), sessiontest.OfType(s.Events, session.TypeLLMRetry)
	if f.Text != "ok now" || len(attempts) != 1 || len(retries) != 1 {
		t.Fatalf("final %+v, events %v", f, types(s.Events))
	}
	if a := sessiontest.Decode[session.AssistantAttempt](t, attempts[0]); a.Status != 429 || a.Kind != "rate-limit" {
		t.Fatalf("attempt = %+v", a)
	}
}

func TestUserErrorsAreClearSentences(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Turn{Status: 401, Message: "bad key"})
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"a missing API key says which variable to set", []string{"run", "hi"}, "DEEPSEEK_API_KEY"},
		{"an unknown session id says how to list sessions", []string{"run", "--resume", "nope", "--base-url", srv.URL, "--model", "m", "hi"}, "ptc sessions"},
		{"showing an unknown session says how to list sessions", []string{"session", "show", "nope"}, "ptc sessions"},
		{"a rejected key ends the turn with the server's reason", []string{"run", "--base-url", srv.URL, "--model", "m", "hi"}, "401"},
		{"an unknown sandbox mode lists the valid ones", []string{"run", "--sandbox", "open", "hi"}, "read-only, workspace-write, git-write or danger-full-access"},
	}
	c := newCLI(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := c.run(tc.args...)
			if code == 0 || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d, stderr %q, want it to mention %q", code, errs, tc.want)
			}
		})
	}
}
