package llmtest

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestStreamIsRealisticSSE reads the raw stream: data lines separated by
// blank lines, the tool call split with id and name only on its first
// delta, usage only in the last chunk, then [DONE].
func TestStreamIsRealisticSSE(t *testing.T) {
	srv := NewServer(t, Turn{Reasoning: "hmm", Text: "hello", ToolCalls: []ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"ls"}`}},
		Usage: &Usage{Prompt: 10, Completion: 3, CacheHit: 4}})
	resp, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var payloads []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		p, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("line %q is not a data line", line)
		}
		payloads = append(payloads, p)
	}
	if payloads[len(payloads)-1] != "[DONE]" {
		t.Fatalf("stream does not end with [DONE]: %q", payloads[len(payloads)-1])
	}
	type chunk struct {
		Choices []struct {
			Delta struct {
				ToolCalls []struct {
					ID       string `json:"id"`
					Function struct {
						Name string `json:"name"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"delta"`
		} `json:"choices"`
		Usage *struct {
			PromptCacheHitTokens int `json:"prompt_cache_hit_tokens"`
		} `json:"usage"`
	}
	var ids, withUsage, toolDeltas int
	for i, p := range payloads[:len(payloads)-1] {
		var c chunk
		if err := json.Unmarshal([]byte(p), &c); err != nil {
			t.Fatalf("chunk %d %q: %v", i, p, err)
		}
		if c.Usage != nil {
			withUsage++
			if i != len(payloads)-2 || c.Usage.PromptCacheHitTokens != 4 || len(c.Choices) != 0 {
				t.Fatalf("usage must come alone in the last chunk, got chunk %d %s", i, p)
			}
		}
		for _, ch := range c.Choices {
			for _, tc := range ch.Delta.ToolCalls {
				toolDeltas++
				if tc.ID != "" {
					ids++
				}
			}
		}
	}
	if ids != 1 || toolDeltas < 3 || withUsage != 1 {
		t.Fatalf("ids %d, tool deltas %d, usage chunks %d", ids, toolDeltas, withUsage)
	}
	if got := srv.Requests(); len(got) != 1 || string(got[0].Body) != `{"model":"m","stream":true}` {
		t.Fatalf("recorded %+v", got)
	}
}

func TestStatusTurnsAnswerWithErrors(t *testing.T) {
	srv := NewServer(t, Turn{Status: 429, RetryAfter: "2", Message: "slow down"})
	resp, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" || body.Error.Message != "slow down" {
		t.Fatalf("status %d, retry-after %q, message %q", resp.StatusCode, resp.Header.Get("Retry-After"), body.Error.Message)
	}
}

func TestCloseMayBeCalledFromSeveralGoroutines(t *testing.T) {
	srv := NewServer(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			srv.Close()
		}()
	}
	wg.Wait()
	select {
	case <-srv.closed:
	default:
		t.Fatal("Close returned but hanging requests were not released")
	}
}

func TestRawTurnsReplayBytesVerbatim(t *testing.T) {
	stream := []byte(": keep-alive\n\ndata: {\"choices\":[]}\n\ndata: [DONE]\n\n")
	srv := NewServer(t, Turn{Raw: stream, WriteSize: 3}, Turn{Status: 422, Raw: []byte(`{"object":"error"}`)})
	for i, want := range []struct {
		status int
		ct     string
		body   []byte
	}{{200, "text/event-stream", stream}, {422, "application/json", []byte(`{"object":"error"}`)}} {
		resp, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != want.status || resp.Header.Get("Content-Type") != want.ct || string(body) != string(want.body) {
			t.Fatalf("reply %d: status %d, type %q, body %q", i+1, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
}
