package openai

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
)

// sse frames chunk payloads as a stream ending in [DONE].
func sse(payloads ...string) []byte {
	var b strings.Builder
	for _, p := range payloads {
		b.WriteString("data: " + p + "\n\n")
	}
	return []byte(b.String())
}

const stopChunk = `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`

func TestStreamRejectedStreamOptionsIsDroppedOncePerProvider(t *testing.T) {
	body := []byte(`{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","stream_options","include_usage"],"msg":"Extra inputs are not permitted","input":true}]},"type":"invalid_request_error"}`)
	ok := llmtest.Turn{Raw: sse(`{"choices":[{"delta":{"content":"hi"}}]}`, stopChunk, "[DONE]")}
	srv := llmtest.NewServer(t, llmtest.Turn{Status: 422, Raw: body}, ok, ok)
	p := newProvider(t, srv.URL, "k")
	for i := range 2 {
		resp, err := p.Stream(context.Background(), toolRequest(), nil)
		if err != nil || resp.Message.Content != "hi" {
			t.Fatalf("stream %d: %+v %v", i+1, resp, err)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want the rejected one, its repeat and the next stream", len(reqs))
	}
	for i, want := range []bool{true, false, false} {
		c, _ := reqs[i].Decode()
		if (c.StreamOptions != nil) != want {
			t.Fatalf("request %d: stream_options present %v, want %v", i+1, c.StreamOptions != nil, want)
		}
	}
}

func TestStreamOptionsAreNeverSentToAModelTheTableMarks(t *testing.T) {
	ok := llmtest.Turn{Raw: sse(`{"choices":[{"delta":{"content":"hi"}}]}`, stopChunk, "[DONE]")}
	srv := llmtest.NewServer(t, ok, llmtest.Turn{Status: 422, Message: "stream_options: Extra inputs are not permitted"})
	p := New(Config{Name: "mistral", BaseURL: srv.URL, Model: "mistral-large-latest", APIKey: "k"})
	if resp, err := p.Stream(context.Background(), toolRequest(), nil); err != nil || resp.Message.Content != "hi" {
		t.Fatalf("first stream: %+v %v", resp, err)
	}
	_, err := p.Stream(context.Background(), toolRequest(), nil)
	if e := llm.AsError(err); e.Kind != llm.ErrBadRequest || !strings.Contains(e.Message, "Extra inputs") {
		t.Fatalf("a 422 for a request without stream_options is the server's answer as it is: %v", err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the 422 is not repeated)", len(reqs))
	}
	for i, r := range reqs {
		if c, _ := r.Decode(); c.StreamOptions != nil {
			t.Fatalf("request %d carries stream_options", i+1)
		}
	}
}

func TestStreamOtherBadRequestsAreNotRepeated(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Turn{Status: 422, Message: "messages.0.content: field required"})
	_, err := newProvider(t, srv.URL, "k").Stream(context.Background(), toolRequest(), nil)
	if e := llm.AsError(err); e.Kind != llm.ErrBadRequest || len(srv.Requests()) != 1 || !strings.Contains(e.Message, "field required") {
		t.Fatalf("err %v after %d requests", err, len(srv.Requests()))
	}
}

func TestStreamContextOverflow(t *testing.T) {
	tests := []struct {
		name            string
		turn            llmtest.Turn
		tokens, window  int
		estimatedTokens bool
	}{
		{name: "DeepSeek's 400 gives both sizes",
			turn:   llmtest.Turn{Status: 400, Raw: []byte(`{"error":{"message":"This model's maximum context length is 131072 tokens. However, you requested 131134 tokens (122942 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`)},
			tokens: 131134, window: 131072},
		{name: "OpenAI's code without numbers takes the table's window and an estimate",
			turn:   llmtest.Turn{Status: 400, Raw: []byte(`{"error":{"message":"Your input exceeds the context window of this model.","type":"invalid_request_error","code":"context_length_exceeded"}}`)},
			window: 1 << 20, estimatedTokens: true},
		{name: "a 413 from a proxy with the usual words",
			turn:   llmtest.Turn{Status: 413, Message: "prompt is too long: 250000 tokens > 200000 maximum"},
			window: 1 << 20, estimatedTokens: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tc.turn)
			req := toolRequest()
			req.Model = "deepseek-v4-flash"
			_, err := newProvider(t, srv.URL, "k").Stream(context.Background(), req, nil)
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.ErrContextOverflow || e.Retryable() {
				t.Fatalf("err %v, want a context-overflow failure", err)
			}
			if e.ContextWindow != tc.window || (!tc.estimatedTokens && e.RequestTokens != tc.tokens) || (tc.estimatedTokens && e.RequestTokens <= 0) {
				t.Fatalf("request %d tokens, window %d; want %d, %d", e.RequestTokens, e.ContextWindow, tc.tokens, tc.window)
			}
			if !strings.Contains(e.Message, "compacted") || !strings.Contains(e.Message, "deepseek-v4-flash") {
				t.Fatalf("message %q", e.Message)
			}
		})
	}
}

func TestStreamAccountErrorsSayWhatToDo(t *testing.T) {
	tests := []struct {
		name, env string
		turn      llmtest.Turn
		kind      llm.ErrorKind
		contains  []string
	}{
		{"402 says the balance is insufficient and names the key", "DEEPSEEK_API_KEY",
			llmtest.Turn{Status: 402, Message: "Insufficient Balance"}, llm.ErrPayment,
			[]string{"insufficient balance", "DEEPSEEK_API_KEY", "top it up", "Insufficient Balance"}},
		{"401 names the variable the key came from", "DEEPSEEK_API_KEY",
			llmtest.Turn{Status: 401, Message: "Authentication Fails"}, llm.ErrAuth,
			[]string{"rejected the API key from DEEPSEEK_API_KEY"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tc.turn)
			p := New(Config{Name: "deepseek", BaseURL: srv.URL, Model: "deepseek-v4-flash", APIKey: "sk", KeyEnv: tc.env})
			_, err := p.Stream(context.Background(), toolRequest(), nil)
			e := llm.AsError(err)
			if e.Kind != tc.kind || e.Retryable() {
				t.Fatalf("kind %s retryable %v", e.Kind, e.Retryable())
			}
			for _, s := range tc.contains {
				if !strings.Contains(e.Message, s) {
					t.Fatalf("message %q does not mention %q", e.Message, s)
				}
			}
		})
	}
}

func TestStreamShapes(t *testing.T) {
	text := `{"choices":[{"index":0,"delta":{"content":"hello"}}]}`
	tests := []struct {
		name     string
		raw      string
		kind     llm.ErrorKind // "" for success
		content  string
		contains string
	}{
		{name: "comments, other fields and empty data lines are ignored",
			raw:     ": keep-alive\n\nevent: message\nid: 7\nretry: 10\ndata:\n\ndata: \n\n" + string(sse(text, stopChunk, "[DONE]")),
			content: "hello"},
		{name: "CRLF line endings are read", raw: strings.ReplaceAll(string(sse(text, stopChunk, "[DONE]")), "\n", "\r\n"), content: "hello"},
		{name: "a last event without its blank line still counts", raw: "data: " + text + "\n\ndata: " + stopChunk + "\n", content: "hello"},
		{name: "a finish reason without [DONE] completes the answer", raw: string(sse(text, stopChunk)), content: "hello"},
		{name: "[DONE] without a finish reason completes the answer", raw: string(sse(text, "[DONE]")), content: "hello"},
		{name: "no finish reason and no [DONE] is a cut stream", raw: string(sse(text)),
			kind: llm.ErrTransport, contains: "ended before the answer was finished"},
		{name: "a half-sent last event is dropped, not parsed", raw: string(sse(text)) + `data: {"choices":[{"delta":{"content":"x`,
			kind: llm.ErrTransport, contains: "ended before the answer was finished"},
		{name: "an error object mid-stream fails the attempt with its message",
			raw:  string(sse(text, `{"error":{"message":"The server had an error","type":"server_error"}}`)),
			kind: llm.ErrServer, contains: "The server had an error"},
		{name: "an in-stream rate limit is a rate limit",
			raw:  string(sse(text, `{"error":{"message":"slow down","code":"rate_limit_exceeded"}}`)),
			kind: llm.ErrRateLimit, contains: "slow down"},
		{name: "an in-stream 429 code is a rate limit", raw: string(sse(`{"error":{"message":"busy","code":429}}`)), kind: llm.ErrRateLimit},
		{name: "server text is cleaned of control characters",
			raw:  string(sse(`{"error":{"message":"bad \u001b[31mred\u001b[0m\nnews"}}`)),
			kind: llm.ErrServer, contains: "bad [31mred[0m news"},
		{name: "a malformed chunk is a server failure quoting it", raw: string(sse(`{"choices":[`)),
			kind: llm.ErrServer, contains: `malformed stream chunk`},
		{name: "an endless event is refused", raw: "data: \"" + strings.Repeat("x", maxEventBytes+10),
			kind: llm.ErrServer, contains: "larger than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Turn{Raw: []byte(tc.raw), WriteSize: 5})
			if len(tc.raw) > 1<<20 {
				srv = llmtest.NewServer(t, llmtest.Turn{Raw: []byte(tc.raw)})
			}
			resp, err := newProvider(t, srv.URL, "k").Stream(context.Background(), toolRequest(), nil)
			if tc.kind == "" {
				if err != nil || resp.Message.Content != tc.content || resp.Finish != llm.FinishStop {
					t.Fatalf("resp %+v err %v", resp, err)
				}
				return
			}
			e := llm.AsError(err)
			if err == nil || e.Kind != tc.kind || !strings.Contains(e.Message, tc.contains) {
				t.Fatalf("err %v (kind %s), want %s mentioning %q", err, e.Kind, tc.kind, tc.contains)
			}
		})
	}
}

func TestStreamReasoningGoesBackInTheFieldTheServerStreamed(t *testing.T) {
	call := `{"choices":[{"index":0,"delta":{"reasoning":"look","tool_calls":[{"index":0,"id":"c1","function":{"name":"bash","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`
	srv := llmtest.NewServer(t, llmtest.Turn{Raw: sse(call, "[DONE]")}, llmtest.Turn{Raw: sse(`{"choices":[{"delta":{"content":"ok"}}]}`, stopChunk)})
	p := newProvider(t, srv.URL, "k")
	req := toolRequest()
	req.Model = "deepseek-v4-flash" // the table says reasoning_content; the server's own stream wins
	resp, err := p.Stream(context.Background(), req, nil)
	if err != nil || resp.Message.Reasoning != "look" {
		t.Fatalf("%+v %v", resp, err)
	}
	req.Messages = append(req.Messages, resp.Message, llm.Message{Role: llm.RoleTool, ToolCallID: "c1", Content: "out"})
	if _, err := p.Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	body := string(srv.Requests()[1].Body)
	if !strings.Contains(body, `"reasoning":"look"`) || strings.Contains(body, "reasoning_content") {
		t.Fatalf("second request %s", body)
	}
}

func TestStreamNonStreamContentType(t *testing.T) {
	srv := llmtest.NewServerFunc(t, func(int, llmtest.Request) llmtest.Turn {
		return llmtest.Turn{Status: http.StatusOK, Raw: []byte(`{"error":{"message":"upstream says no"}}`)}
	})
	_, err := newProvider(t, srv.URL, "k").Stream(context.Background(), toolRequest(), nil)
	if err == nil {
		t.Fatal("a JSON body instead of a stream must not be an answer")
	}
}

func TestStreamPricesUsageFromTheTable(t *testing.T) {
	usage := &llmtest.Usage{Prompt: 1000, Completion: 100, CacheHit: 600}
	for _, tc := range []struct {
		model string
		want  float64
	}{
		{"deepseek-v4-flash", (400*0.14 + 600*0.014 + 100*0.28) / 1e6},
		{"my-local-model", 0},
	} {
		t.Run(tc.model, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Turn{Text: "hi", Usage: usage})
			req := toolRequest()
			req.Model = tc.model
			resp, err := newProvider(t, srv.URL, "k").Stream(context.Background(), req, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := resp.Usage.CostUSD; got < tc.want-1e-9 || got > tc.want+1e-9 {
				t.Fatalf("cost %v, want %v", got, tc.want)
			}
		})
	}
}

func TestStream401SaysAWithheldKeyWasNotSent(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Turn{Status: 401, Message: "no key"})
	cfg, err := ConfigFromEnv(srv.URL, "", func(k string) string { return map[string]string{"DEEPSEEK_API_KEY": "ds"}[k] })
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(cfg).Stream(context.Background(), toolRequest(), nil)
	e := llm.AsError(err)
	if e.Kind != llm.ErrAuth || !strings.Contains(e.Message, "set OPENAI_API_KEY") || !strings.Contains(e.Message, "DEEPSEEK_API_KEY is sent only") {
		t.Fatalf("message %q", e.Message)
	}
	if h := srv.Requests()[0].Header.Get("Authorization"); h != "" {
		t.Fatalf("the DeepSeek key went to another host: %q", h)
	}
}

func TestStreamAnEndlessAnswerIsStopped(t *testing.T) {
	piece := `{"choices":[{"index":0,"delta":{"content":"` + strings.Repeat("x", 1<<20) + `"}}]}`
	var b strings.Builder
	for range maxAnswerBytes>>20 + 2 {
		b.WriteString("data: " + piece + "\n\n")
	}
	srv := llmtest.NewServer(t, llmtest.Turn{Raw: []byte(b.String())})
	_, err := newProvider(t, srv.URL, "k").Stream(context.Background(), toolRequest(), nil)
	if e := llm.AsError(err); e.Kind != llm.ErrServer || !strings.Contains(e.Message, "larger than") {
		t.Fatalf("err %v", err)
	}
}

func TestStreamIsSafeForConcurrentUse(t *testing.T) {
	srv := llmtest.NewServerFunc(t, func(n int, _ llmtest.Request) llmtest.Turn {
		if n == 0 {
			return llmtest.Turn{Status: 422, Message: "stream_options: Extra inputs are not permitted"}
		}
		return llmtest.Turn{Reasoning: "r", Text: "t"}
	})
	p := newProvider(t, srv.URL, "k")
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			_, err := p.Stream(context.Background(), toolRequest(), nil)
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
