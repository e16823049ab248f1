// Package llm holds the provider-neutral model vocabulary: messages, tool
// specifications, stream chunks, finish reasons, usage and typed failures,
// plus the Provider seam that every model backend implements.
//
// The agent loop speaks only these types. An adapter (OpenAI-compatible,
// scripted) translates them to and from a wire format; nothing above this
// package knows which backend answered.
package llm

import (
	"context"
	"encoding/json"
)

// Role says who produced a Message.
type Role string

// The roles a request may carry. System text travels in Request.System,
// never as a message, so that it stays byte-stable across steps.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of the conversation sent to a model.
//
// Assistant messages may carry Reasoning and ToolCalls; tool messages carry
// ToolCallID (and the tool's Name) and must directly follow the assistant
// message that asked for them.
type Message struct {
	Role       Role       `json:"role"`
	Content    string     `json:"content,omitempty"`
	Reasoning  string     `json:"reasoning,omitempty"`
	ToolCalls  []ToolCall `json:"toolCalls,omitempty"`
	ToolCallID string     `json:"toolCallId,omitempty"`
	Name       string     `json:"name,omitempty"`
}

// ToolCall is a call the model asked for. Arguments is the raw string the
// model sent, kept verbatim (it may be invalid JSON; the tool runtime decides).
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolSpec is a tool as it appears on the wire: its name, description and
// input JSON Schema.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Options are the tunable request parameters. Zero values mean "provider
// default" and are omitted from the wire.
type Options struct {
	Temperature *float64 `json:"temperature,omitempty"`
	MaxTokens   int      `json:"maxTokens,omitempty"`
}

// Request is one model request, fully assembled. It is a pure function of
// the session log (see runtime/prompt), so it must not carry anything that
// cannot be rebuilt from there.
type Request struct {
	Model    string     `json:"model"`
	System   string     `json:"system"`
	Messages []Message  `json:"messages"`
	Tools    []ToolSpec `json:"tools,omitempty"`
	Options  Options    `json:"options"`
}

// FinishReason says why a response ended.
type FinishReason string

// Finish reasons, provider-neutral.
const (
	FinishStop      FinishReason = "stop"
	FinishToolCalls FinishReason = "tool-calls"
	FinishMaxTokens FinishReason = "max-tokens"
	FinishError     FinishReason = "error"
	FinishAborted   FinishReason = "aborted"
)

// Usage counts tokens for one response. CacheHitTokens is the part of
// InputTokens served from the provider's prefix cache. CostUSD is what the
// response cost in US dollars by the model table's prices at the time
// (cache hits priced as such; see runtime/llm/models), set by the
// provider; 0 when the model has no price (local servers, scripts).
type Usage struct {
	InputTokens     int     `json:"input"`
	OutputTokens    int     `json:"output"`
	CacheHitTokens  int     `json:"cacheHit,omitempty"`
	ReasoningTokens int     `json:"reasoning,omitempty"`
	CostUSD         float64 `json:"cost_usd,omitempty"`
}

// ChunkKind tells which field of a Chunk is set.
type ChunkKind string

// Chunk kinds.
const (
	ChunkText      ChunkKind = "text"
	ChunkReasoning ChunkKind = "reasoning"
	ChunkToolCall  ChunkKind = "tool-call"
)

// Chunk is one streamed delta. For ChunkToolCall, Index identifies the call
// (deltas of one call share it); ID and Name arrive on the first delta of a
// call, ArgsDelta is appended to the call's raw argument string.
type Chunk struct {
	Kind      ChunkKind `json:"kind"`
	Text      string    `json:"text,omitempty"`
	Index     int       `json:"index,omitempty"`
	ID        string    `json:"id,omitempty"`
	Name      string    `json:"name,omitempty"`
	ArgsDelta string    `json:"argsDelta,omitempty"`
}

// Response is a completed (or interrupted) model answer: the assembled
// assistant message, why it ended, and token usage.
type Response struct {
	Message Message      `json:"message"`
	Finish  FinishReason `json:"finish"`
	Usage   Usage        `json:"usage"`
}

// Provider is the seam between the agent loop and a model backend.
//
// Stream sends req and calls onChunk for every delta, in order, on the
// calling goroutine. It returns the assembled Response when the stream ends.
// On failure it returns a *Error (see Classify); if the context was
// cancelled mid-stream it returns the partial Response assembled so far
// (Finish = FinishAborted) together with the context's error, so the caller
// can keep the interrupted text.
//
// Stream performs exactly one attempt: retries are the caller's decision
// (see RetryPolicy), so that each attempt can be logged.
type Provider interface {
	Name() string
	Stream(ctx context.Context, req Request, onChunk func(Chunk)) (*Response, error)
}
