package openai

import (
	"strings"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// streamChunk is one SSE data payload. It reuses go-openai's chunk type but
// shadows Usage to read the cache and reasoning counters go-openai does
// not model (DeepSeek's prompt_cache_hit_tokens).
type streamChunk struct {
	goopenai.ChatCompletionStreamResponse
	Usage *wireUsage `json:"usage"`
}

type wireUsage struct {
	PromptTokens         int `json:"prompt_tokens"`
	CompletionTokens     int `json:"completion_tokens"`
	PromptCacheHitTokens int `json:"prompt_cache_hit_tokens"`
	PromptTokensDetails  *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

// assembler folds stream chunks into a Response and forwards each delta to
// emit as a provider-neutral Chunk.
type assembler struct {
	emit      func(llm.Chunk)
	text      strings.Builder
	reasoning strings.Builder
	calls     []llm.ToolCall
	slot      map[int]int // wire tool-call index → position in calls
	finish    goopenai.FinishReason
	usage     llm.Usage
}

func newAssembler(emit func(llm.Chunk)) *assembler {
	return &assembler{emit: emit, slot: map[int]int{}}
}

func (a *assembler) add(c *streamChunk) {
	if c.Usage != nil {
		a.usage = toUsage(c.Usage)
	}
	if len(c.Choices) == 0 {
		return
	}
	ch := c.Choices[0]
	if ch.FinishReason != "" && ch.FinishReason != goopenai.FinishReasonNull {
		a.finish = ch.FinishReason
	}
	d := ch.Delta
	if d.ReasoningContent != "" {
		a.reasoning.WriteString(d.ReasoningContent)
		a.emit(llm.Chunk{Kind: llm.ChunkReasoning, Text: d.ReasoningContent})
	}
	if d.Content != "" {
		a.text.WriteString(d.Content)
		a.emit(llm.Chunk{Kind: llm.ChunkText, Text: d.Content})
	}
	for _, tc := range d.ToolCalls {
		a.addCall(tc)
	}
}

// addCall appends one tool-call delta. Deltas of one call share a wire
// index; the id and name come on the first one. A server that omits the
// index gets one: a delta with an id starts a new call, one without
// continues the last call.
func (a *assembler) addCall(tc goopenai.ToolCall) {
	var pos int
	switch {
	case tc.Index != nil:
		p, ok := a.slot[*tc.Index]
		if !ok {
			p = len(a.calls)
			a.calls = append(a.calls, llm.ToolCall{})
			a.slot[*tc.Index] = p
		}
		pos = p
	case tc.ID == "" && len(a.calls) > 0:
		pos = len(a.calls) - 1
	default:
		pos = len(a.calls)
		a.calls = append(a.calls, llm.ToolCall{})
	}
	call := &a.calls[pos]
	if call.ID == "" {
		call.ID = tc.ID
	}
	if call.Name == "" {
		call.Name = tc.Function.Name
	}
	call.Arguments += tc.Function.Arguments
	if tc.ID != "" || tc.Function.Name != "" || tc.Function.Arguments != "" {
		a.emit(llm.Chunk{Kind: llm.ChunkToolCall, Index: pos, ID: tc.ID, Name: tc.Function.Name, ArgsDelta: tc.Function.Arguments})
	}
}

func toUsage(u *wireUsage) llm.Usage {
	out := llm.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens, CacheHitTokens: u.PromptCacheHitTokens}
	if out.CacheHitTokens == 0 && u.PromptTokensDetails != nil {
		out.CacheHitTokens = u.PromptTokensDetails.CachedTokens
	}
	if u.CompletionTokensDetails != nil {
		out.ReasoningTokens = u.CompletionTokensDetails.ReasoningTokens
	}
	return out
}

// empty reports a stream that produced nothing to act on: no text and no
// tool call, and not cut off by the token limit.
func (a *assembler) empty() bool {
	return a.text.Len() == 0 && len(a.calls) == 0 && a.finish != goopenai.FinishReasonLength
}

// response is the completed answer. Tool calls decide the finish when the
// server says "stop" anyway (some local servers do).
func (a *assembler) response() *llm.Response {
	r := a.partial()
	r.Message.ToolCalls = a.calls
	switch {
	case a.finish == goopenai.FinishReasonLength:
		r.Finish = llm.FinishMaxTokens
	case len(a.calls) > 0:
		r.Finish = llm.FinishToolCalls
	default:
		r.Finish = llm.FinishStop
	}
	return r
}

// aborted is what was streamed before a cancel: text and reasoning only,
// because a tool call cut off mid-arguments cannot be trusted.
func (a *assembler) aborted() *llm.Response {
	r := a.partial()
	r.Finish = llm.FinishAborted
	return r
}

func (a *assembler) partial() *llm.Response {
	return &llm.Response{
		Message: llm.Message{Role: llm.RoleAssistant, Content: a.text.String(), Reasoning: a.reasoning.String()},
		Usage:   a.usage,
	}
}
