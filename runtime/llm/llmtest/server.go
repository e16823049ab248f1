package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// ToolCall is a tool call a Turn streams back. Arguments is sent verbatim,
// split across several deltas.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// Usage is the token usage sent in the final chunk. CacheHit is sent both
// as DeepSeek's prompt_cache_hit_tokens and OpenAI's
// prompt_tokens_details.cached_tokens.
type Usage struct {
	Prompt     int
	Completion int
	CacheHit   int
	Reasoning  int
}

// Turn is one scripted answer of the server. The zero Turn streams an empty
// answer (no content, no tool calls), which clients should treat as an
// empty response.
type Turn struct {
	Reasoning string
	Text      string
	ToolCalls []ToolCall
	// Finish is the wire finish_reason; empty means "tool_calls" when there
	// are tool calls and "stop" otherwise.
	Finish string
	// Usage overrides the usage estimated from the sizes of the request and
	// the answer.
	Usage *Usage

	// Status, when non-zero, answers with that HTTP status and an
	// OpenAI-style error body carrying Message instead of a stream.
	Status  int
	Message string
	// RetryAfter is sent as the Retry-After header with a Status answer.
	RetryAfter string

	// StreamError, when set, ends the stream after the content with an
	// error event carrying this message (no finish, no [DONE]).
	StreamError string
	// Hang sends the content and then holds the connection open, sending
	// nothing more, until the client goes away or the server closes.
	Hang bool
	// Cut drops the connection after the content, without finish or
	// [DONE], as a crashing proxy would.
	Cut bool
	// Drip pauses between chunks.
	Drip time.Duration

	// Raw, when set, is sent verbatim instead of a generated answer: the
	// bytes of a recorded stream (as text/event-stream) or, with Status,
	// a recorded error body (as application/json). Replaying what real
	// servers sent is how the wire corpus tests the adapter.
	Raw []byte
	// WriteSize, with Raw, writes it in pieces of this many bytes, each
	// flushed on its own (and Drip apart), so that events arrive split
	// across reads; 0 writes it at once.
	WriteSize int
}

// Request is one request the server received.
type Request struct {
	Header http.Header
	Body   []byte
}

// Decode parses the request body into the typed view tests assert on.
func (r Request) Decode() (ChatRequest, error) {
	var c ChatRequest
	err := json.Unmarshal(r.Body, &c)
	return c, err
}

// ChatRequest is the part of a chat-completions request tests look at.
type ChatRequest struct {
	Model         string         `json:"model"`
	Messages      []Message      `json:"messages"`
	Tools         []Tool         `json:"tools"`
	Stream        bool           `json:"stream"`
	StreamOptions *StreamOptions `json:"stream_options"`
	MaxTokens     int            `json:"max_tokens"`
	Temperature   *float64       `json:"temperature"`
}

// StreamOptions mirrors the wire stream_options.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// Message is a wire message as the client sent it.
type Message struct {
	Role             string         `json:"role"`
	Content          string         `json:"content"`
	ReasoningContent string         `json:"reasoning_content"`
	ToolCalls        []WireToolCall `json:"tool_calls"`
	ToolCallID       string         `json:"tool_call_id"`
}

// WireToolCall is an assistant tool call as the client sent it back.
type WireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Tool is a wire function tool.
type Tool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// Server is a running fake. It is closed by the test's cleanup.
type Server struct {
	// URL is the base URL to give a client, ending in /v1.
	URL string

	t      testing.TB
	srv    *httptest.Server
	next   func(n int, req Request) Turn
	closed chan struct{}
	once   sync.Once

	mu       sync.Mutex
	requests []Request
	titles   int // title requests, answered apart (see handle)
}

// NewServer starts a server that answers the n-th request with turns[n].
// A request beyond the script fails the test and gets a 500.
func NewServer(t testing.TB, turns ...Turn) *Server {
	return NewServerFunc(t, func(n int, _ Request) Turn {
		if n >= len(turns) {
			t.Errorf("llmtest: request %d arrived but only %d turns were scripted", n+1, len(turns))
			return Turn{Status: http.StatusInternalServerError, Message: "llmtest: no scripted turn left"}
		}
		return turns[n]
	})
}

// NewServerFunc starts a server that asks next for the answer to the n-th
// request (n from 0), so a test can answer depending on what was sent.
func NewServerFunc(t testing.TB, next func(n int, req Request) Turn) *Server {
	s := &Server{t: t, next: next, closed: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.handle)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(s.Close)
	return s
}

// Close releases hanging requests and stops the server. It is safe to call
// more than once, and from several goroutines.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.closed)
		s.srv.Close()
	})
}

// Requests returns a copy of every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if isTitleRequest(body) {
		// A session's title side request (runtime/title) is not one of
		// the scripted turns: it is refused, counted apart, and the
		// session keeps its first prompt's line as a title.
		s.mu.Lock()
		s.titles++
		s.mu.Unlock()
		writeError(w, Turn{Status: http.StatusBadRequest, Message: "llmtest: title requests are not scripted"})
		return
	}
	req := Request{Header: r.Header.Clone(), Body: body}
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, req)
	s.mu.Unlock()

	turn := s.next(n, req)
	if turn.Status != 0 {
		writeError(w, turn)
		return
	}
	if turn.Raw != nil {
		s.writeRaw(w, r, turn)
		return
	}
	var model struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(body, &model)
	st := &streamer{w: w, r: r, closed: s.closed, drip: turn.Drip, id: fmt.Sprintf("chatcmpl-llmtest-%d", n+1), model: model.Model}
	st.run(turn, len(body))
}

// isTitleRequest reports whether a request body is a title side request:
// its last message is a user message opening with llm.TitleRequestTag.
func isTitleRequest(body []byte) bool {
	var req struct {
		Messages []Message `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil || len(req.Messages) == 0 {
		return false
	}
	last := req.Messages[len(req.Messages)-1]
	return last.Role == "user" && strings.HasPrefix(last.Content, llm.TitleRequestTag)
}

// TitleRequests is how many title side requests arrived (refused, and not
// among Requests).
func (s *Server) TitleRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.titles
}

func writeError(w http.ResponseWriter, turn Turn) {
	if turn.RetryAfter != "" {
		w.Header().Set("Retry-After", turn.RetryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(turn.Status)
	if turn.Raw != nil {
		_, _ = w.Write(turn.Raw)
		return
	}
	msg := turn.Message
	if msg == "" {
		msg = http.StatusText(turn.Status)
	}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"error": map[string]any{"message": msg, "type": "llmtest_error", "code": turn.Status},
	})
}

// writeRaw sends a recorded stream byte for byte, in WriteSize pieces.
func (s *Server) writeRaw(w http.ResponseWriter, r *http.Request, turn Turn) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	st := &streamer{w: w, r: r, closed: s.closed, drip: turn.Drip}
	size := turn.WriteSize
	if size <= 0 {
		size = len(turn.Raw)
	}
	for rest := turn.Raw; len(rest) > 0; {
		n := min(size, len(rest))
		if !st.write(rest[:n]) {
			return
		}
		rest = rest[n:]
	}
}
