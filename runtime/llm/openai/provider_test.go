package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
)

func newProvider(t *testing.T, url, key string) *Provider {
	t.Helper()
	return New(Config{Name: "openai", BaseURL: url, Model: "test-model", APIKey: key, KeyEnv: "OPENAI_API_KEY",
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }})
}

var bashSchema = json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)

func toolRequest() llm.Request {
	return llm.Request{
		System:   "You are terse.",
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "list files"}},
		Tools:    []llm.ToolSpec{{Name: "bash", Description: "run a command", Parameters: bashSchema}},
	}
}

func TestStreamAssemblesSplitDeltas(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Turn{
		Reasoning: "I should list the files first.",
		Text:      "Let me look.",
		ToolCalls: []llmtest.ToolCall{
			{ID: "call_a", Name: "bash", Arguments: `{"command":"ls -la","description":"list"}`},
			{ID: "call_b", Name: "bash", Arguments: `{"command":"pwd"}`},
		},
		Usage: &llmtest.Usage{Prompt: 120, Completion: 30, CacheHit: 64, Reasoning: 9},
	})
	var chunks []llm.Chunk
	resp, err := newProvider(t, srv.URL, "sk-test").Stream(context.Background(), toolRequest(), func(c llm.Chunk) { chunks = append(chunks, c) })
	if err != nil {
		t.Fatal(err)
	}
	want := llm.Response{
		Message: llm.Message{Role: llm.RoleAssistant, Content: "Let me look.", Reasoning: "I should list the files first.",
			ToolCalls: []llm.ToolCall{
				{ID: "call_a", Name: "bash", Arguments: `{"command":"ls -la","description":"list"}`},
				{ID: "call_b", Name: "bash", Arguments: `{"command":"pwd"}`},
			}},
		Finish: llm.FinishToolCalls,
		Usage:  llm.Usage{InputTokens: 120, OutputTokens: 30, CacheHitTokens: 64, ReasoningTokens: 9},
	}
	if got, _ := json.Marshal(resp); string(got) != mustJSON(t, want) {
		t.Fatalf("response\n got %s\nwant %s", got, mustJSON(t, want))
	}

	t.Run("chunks replay the answer in order", func(t *testing.T) {
		var text, reasoning strings.Builder
		args := map[int]string{}
		fragments := 0
		for _, c := range chunks {
			switch c.Kind {
			case llm.ChunkText:
				text.WriteString(c.Text)
			case llm.ChunkReasoning:
				reasoning.WriteString(c.Text)
			case llm.ChunkToolCall:
				args[c.Index] += c.ArgsDelta
				fragments++
			}
		}
		if text.String() != want.Message.Content || reasoning.String() != want.Message.Reasoning {
			t.Fatalf("chunks give text %q reasoning %q", text.String(), reasoning.String())
		}
		if args[0] != want.Message.ToolCalls[0].Arguments || args[1] != want.Message.ToolCalls[1].Arguments || fragments < 6 {
			t.Fatalf("tool-call chunks give %v in %d fragments", args, fragments)
		}
	})

	t.Run("the request streams with usage, system first and schemas verbatim", func(t *testing.T) {
		reqs := srv.Requests()
		if len(reqs) != 1 {
			t.Fatalf("%d requests", len(reqs))
		}
		c, err := reqs[0].Decode()
		if err != nil {
			t.Fatal(err)
		}
		if !c.Stream || c.StreamOptions == nil || !c.StreamOptions.IncludeUsage || c.Model != "test-model" {
			t.Fatalf("stream flags/model wrong: %+v", c)
		}
		if len(c.Messages) != 2 || c.Messages[0].Role != "system" || c.Messages[0].Content != "You are terse." || c.Messages[1].Role != "user" {
			t.Fatalf("messages %+v", c.Messages)
		}
		if len(c.Tools) != 1 || c.Tools[0].Type != "function" || string(c.Tools[0].Function.Parameters) != string(bashSchema) {
			t.Fatalf("tools %+v", c.Tools)
		}
		if got := reqs[0].Header.Get("Authorization"); got != "Bearer sk-test" {
			t.Fatalf("Authorization %q", got)
		}
	})
}

func TestStreamSendsToolTurnBack(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Turn{Text: "done"})
	req := toolRequest()
	req.Model = "deepseek-v4-flash" // the table says its reasoning goes back as reasoning_content
	req.Messages = append(req.Messages,
		llm.Message{Role: llm.RoleAssistant, Reasoning: "need ls", ToolCalls: []llm.ToolCall{{ID: "call_a", Name: "bash", Arguments: `{"command":"ls"}`}}},
		llm.Message{Role: llm.RoleUser, Content: "[snapshot]"},
		llm.Message{Role: llm.RoleTool, ToolCallID: "call_a", Name: "bash", Content: "go.mod"},
		llm.Message{Role: llm.RoleAssistant, Content: "There is go.mod.", Reasoning: "final thoughts"},
	)
	if _, err := newProvider(t, srv.URL, "").Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	c, err := srv.Requests()[0].Decode()
	if err != nil {
		t.Fatal(err)
	}
	roles := []string{}
	for _, m := range c.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,tool,user,assistant" {
		t.Fatalf("roles %v: the tool result must follow its assistant message", roles)
	}
	call, result, last := c.Messages[2], c.Messages[3], c.Messages[5]
	if len(call.ToolCalls) != 1 || call.ToolCalls[0].ID != "call_a" || call.ToolCalls[0].Type != "function" ||
		call.ToolCalls[0].Function.Arguments != `{"command":"ls"}` || call.ReasoningContent != "need ls" {
		t.Fatalf("assistant tool call sent as %+v", call)
	}
	if result.ToolCallID != "call_a" || result.Content != "go.mod" {
		t.Fatalf("tool result sent as %+v", result)
	}
	if last.ReasoningContent != "" {
		t.Fatalf("reasoning sent back on a message without tool calls: %+v", last)
	}
	if h := srv.Requests()[0].Header.Get("Authorization"); h != "" {
		t.Fatalf("no key must send no Authorization header, got %q", h)
	}
}

func TestStreamFinishReasons(t *testing.T) {
	call := []llmtest.ToolCall{{ID: "c1", Name: "bash", Arguments: `{}`}}
	tests := []struct {
		name string
		turn llmtest.Turn
		want llm.FinishReason
	}{
		{"stop is a stop", llmtest.Turn{Text: "hi", Finish: "stop"}, llm.FinishStop},
		{"length is max-tokens", llmtest.Turn{Text: "hi", Finish: "length"}, llm.FinishMaxTokens},
		{"length with only reasoning is still max-tokens", llmtest.Turn{Reasoning: "hmm", Finish: "length"}, llm.FinishMaxTokens},
		{"tool_calls is tool-calls", llmtest.Turn{ToolCalls: call, Finish: "tool_calls"}, llm.FinishToolCalls},
		{"stop with tool calls is tool-calls", llmtest.Turn{ToolCalls: call, Finish: "stop"}, llm.FinishToolCalls},
		{"eos is a stop", llmtest.Turn{Text: "hi", Finish: "eos"}, llm.FinishStop},
		{"max_tokens is max-tokens", llmtest.Turn{Text: "hi", Finish: "max_tokens"}, llm.FinishMaxTokens},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tc.turn)
			resp, err := newProvider(t, srv.URL, "k").Stream(context.Background(), toolRequest(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Finish != tc.want {
				t.Fatalf("finish %s, want %s", resp.Finish, tc.want)
			}
		})
	}
}

func TestStreamCancelKeepsPartialText(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Turn{Reasoning: "thinking", Text: "partial answer here", Hang: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var text string
	resp, err := newProvider(t, srv.URL, "k").Stream(ctx, toolRequest(), func(c llm.Chunk) {
		if c.Kind == llm.ChunkText {
			text += c.Text
			if text == "partial answer here" {
				cancel()
			}
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if resp == nil || resp.Finish != llm.FinishAborted || resp.Message.Content != "partial answer here" || resp.Message.Reasoning != "thinking" {
		t.Fatalf("partial response %+v", resp)
	}
}

func TestStreamErrors(t *testing.T) {
	refused := httptest.NewServer(http.NotFoundHandler())
	refusedURL := refused.URL + "/v1"
	refused.Close()

	tests := []struct {
		name       string
		turn       llmtest.Turn
		key        string
		url        string
		stall      time.Duration
		kind       llm.ErrorKind
		status     int
		retryAfter time.Duration
		contains   string
	}{
		{name: "429 with Retry-After seconds is a rate limit", turn: llmtest.Turn{Status: 429, Message: "slow down", RetryAfter: "3"},
			kind: llm.ErrRateLimit, status: 429, retryAfter: 3 * time.Second, contains: "slow down"},
		{name: "429 with an HTTP date Retry-After", turn: llmtest.Turn{Status: 429, RetryAfter: "Fri, 02 Jan 2026 03:04:15 GMT"},
			kind: llm.ErrRateLimit, status: 429, retryAfter: 10 * time.Second},
		{name: "500 is a server failure", turn: llmtest.Turn{Status: 500, Message: "boom"}, kind: llm.ErrServer, status: 500, contains: "boom"},
		{name: "401 without a key says which variable to set", turn: llmtest.Turn{Status: 401, Message: "no auth"},
			kind: llm.ErrAuth, status: 401, contains: "set OPENAI_API_KEY"},
		{name: "401 with a key says to check it", turn: llmtest.Turn{Status: 401, Message: "bad key"}, key: "sk-wrong",
			kind: llm.ErrAuth, status: 401, contains: "rejected the API key from OPENAI_API_KEY"},
		{name: "403 is an auth failure", turn: llmtest.Turn{Status: 403}, key: "k", kind: llm.ErrAuth, status: 403},
		{name: "400 carries the server's message", turn: llmtest.Turn{Status: 400, Message: "messages[2] is invalid"},
			kind: llm.ErrBadRequest, status: 400, contains: "messages[2] is invalid"},
		{name: "404 points at the base URL", turn: llmtest.Turn{Status: 404}, kind: llm.ErrBadRequest, status: 404, contains: "/v1"},
		{name: "an error event mid-stream is a server failure", turn: llmtest.Turn{Text: "hal", StreamError: "overloaded"},
			kind: llm.ErrServer, contains: "overloaded"},
		{name: "an answer with nothing in it is empty", turn: llmtest.Turn{}, kind: llm.ErrEmpty},
		{name: "content_filter is a clear failure", turn: llmtest.Turn{Text: "hi", Finish: "content_filter"},
			kind: llm.ErrContentFilter, contains: "content filter"},
		{name: "insufficient_system_resource is a retryable server failure", turn: llmtest.Turn{Text: "hi", Finish: "insufficient_system_resource"},
			kind: llm.ErrServer, contains: "ran out of capacity"},
		{name: "an unknown finish reason is a failure naming it", turn: llmtest.Turn{Text: "hi", Finish: "cosmic_ray"},
			kind: llm.ErrOther, contains: `"cosmic_ray"`},
		{name: "finish_reason error without an error object is a server failure", turn: llmtest.Turn{Text: "hi", Finish: "error"},
			kind: llm.ErrServer, contains: "finish_reason error"},
		{name: "reasoning alone is empty", turn: llmtest.Turn{Reasoning: "hmm"}, kind: llm.ErrEmpty},
		{name: "a refused connection is unreachable at once, naming the URL and why", url: refusedURL,
			kind: llm.ErrUnreachable, contains: refusedURL + " cannot be reached: the connection was refused"},
		{name: "a connection dropped mid-stream is a transport failure", turn: llmtest.Turn{Text: "half", Cut: true},
			kind: llm.ErrTransport, contains: "broke in the middle of the answer"},
		{name: "a stalled stream is a timeout", turn: llmtest.Turn{Text: "x", Hang: true}, stall: 50 * time.Millisecond,
			kind: llm.ErrTimeout, contains: "sent nothing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url
			if url == "" {
				url = llmtest.NewServer(t, tc.turn).URL
			}
			p := newProvider(t, url, tc.key)
			if tc.stall > 0 {
				p.cfg.StallTimeout = tc.stall
			}
			resp, err := p.Stream(context.Background(), toolRequest(), nil)
			var e *llm.Error
			if !errors.As(err, &e) {
				t.Fatalf("err %v (%T), want *llm.Error; resp %+v", err, err, resp)
			}
			if e.Kind != tc.kind || e.Status != tc.status || e.RetryAfter != tc.retryAfter {
				t.Fatalf("got kind %s status %d retry-after %v, want %s %d %v (%v)", e.Kind, e.Status, e.RetryAfter, tc.kind, tc.status, tc.retryAfter, e)
			}
			if !strings.Contains(e.Message, tc.contains) {
				t.Fatalf("message %q does not mention %q", e.Message, tc.contains)
			}
		})
	}
}

func TestStreamNonJSONErrorBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After-Ms", "1500")
		http.Error(w, "upstream connect error", http.StatusBadGateway)
	}))
	defer srv.Close()
	_, err := newProvider(t, srv.URL, "k").Stream(context.Background(), toolRequest(), nil)
	e := llm.AsError(err)
	if e.Kind != llm.ErrServer || e.Status != 502 || e.RetryAfter != 1500*time.Millisecond || !strings.Contains(e.Message, "upstream connect error") {
		t.Fatalf("got %+v", e)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestActivityBodyFeedsTheWatchdog(t *testing.T) {
	// The stall guard counts silence, not total time: every read that
	// returns bytes must re-arm it, and an empty read must not.
	touches := 0
	b := &activityBody{ReadCloser: io.NopCloser(strings.NewReader("data: {}\n\n")), touch: func() { touches++ }}
	buf := make([]byte, 4)
	for {
		n, err := b.Read(buf)
		if err == io.EOF {
			if n != 0 {
				t.Fatalf("read %d bytes with EOF", n)
			}
			break
		}
	}
	if touches != 3 {
		t.Fatalf("%d touches for 3 non-empty reads", touches)
	}
}
