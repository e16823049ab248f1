package openai

import (
	"strings"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/models"
)

// assembler folds stream chunks into a Response and forwards each delta to
// emit as a provider-neutral Chunk.
type assembler struct {
	emit      func(llm.Chunk)
	text      strings.Builder
	reasoning strings.Builder
	calls     []llm.ToolCall
	slot      map[int]int // wire tool-call index → position in calls
	finish    string      // the wire finish_reason, "" until one arrives
	usage     llm.Usage
	// field is the reasoning field the server streamed ("" if none), so
	// that the reasoning can go back in the same field.
	field string
	args  int // bytes of tool-call arguments so far
}

// size is how many bytes the answer holds so far.
func (a *assembler) size() int { return a.text.Len() + a.reasoning.Len() + a.args }

func newAssembler(emit func(llm.Chunk)) *assembler {
	return &assembler{emit: emit, slot: map[int]int{}}
}

// add folds one chunk in. An error object in the chunk (top level or in
// its choice) ends the attempt: add returns it.
func (a *assembler) add(c *wireChunk) *wireError {
	if c.Usage != nil {
		a.usage = toUsage(c.Usage)
	}
	if c.Error != nil {
		return c.Error
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue // only one answer is ever asked for
		}
		if ch.Error != nil {
			return ch.Error
		}
		a.delta(&ch.Delta)
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			a.finish = *ch.FinishReason
		}
	}
	return nil
}

func (a *assembler) delta(d *wireDelta) {
	reasoning := d.Content.thinking
	switch {
	case d.ReasoningContent != nil:
		a.field = models.ReasoningContent
		reasoning += *d.ReasoningContent
	case d.Reasoning != nil:
		if a.field == "" {
			a.field = models.Reasoning
		}
		reasoning += *d.Reasoning
	}
	if reasoning != "" {
		a.reasoning.WriteString(reasoning)
		a.emit(llm.Chunk{Kind: llm.ChunkReasoning, Text: reasoning})
	}
	if t := d.Content.text; t != "" {
		a.text.WriteString(t)
		a.emit(llm.Chunk{Kind: llm.ChunkText, Text: t})
	}
	for i := range d.ToolCalls {
		a.addCall(&d.ToolCalls[i])
	}
}

// addCall appends one tool-call delta. Deltas of one call share a wire
// index and the id and name come on the first one; later deltas may
// repeat the id, or send it empty. A delta whose index is taken by a call
// with a different id starts a new call (Ollama sends parallel calls all
// at index 0), so two calls' arguments are never merged. A server that
// omits the index gets one: a delta with a new id starts a new call, any
// other continues the last call.
func (a *assembler) addCall(tc *wireCallDelta) {
	pos, fresh := len(a.calls)-1, false
	switch {
	case tc.Index != nil:
		p, ok := a.slot[*tc.Index]
		if !ok || (tc.ID != "" && a.calls[p].ID != "" && a.calls[p].ID != tc.ID) {
			p, fresh = len(a.calls), true
			a.slot[*tc.Index] = p
		}
		pos = p
	case pos < 0 || (tc.ID != "" && a.calls[pos].ID != tc.ID):
		pos, fresh = len(a.calls), true
	}
	if fresh {
		a.calls = append(a.calls, llm.ToolCall{})
	}
	call := &a.calls[pos]
	if call.ID == "" {
		call.ID = tc.ID
	}
	if call.Name == "" {
		call.Name = tc.Function.Name
	}
	args := string(tc.Function.Arguments)
	call.Arguments += args
	a.args += len(args)
	if tc.ID != "" || tc.Function.Name != "" || args != "" {
		a.emit(llm.Chunk{Kind: llm.ChunkToolCall, Index: pos, ID: tc.ID, Name: tc.Function.Name, ArgsDelta: args})
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
	return a.text.Len() == 0 && len(a.calls) == 0 && !isLength(a.finish)
}

// response is the completed answer for a finish reason that means one
// (see finishKind). Tool calls decide the finish when the server says
// "stop" anyway, or says nothing before [DONE] (some local servers do).
func (a *assembler) response() *llm.Response {
	r := a.partial()
	r.Message.ToolCalls = a.calls
	switch {
	case isLength(a.finish):
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

// Finish reasons that complete an answer. Servers beyond OpenAI use a few
// synonyms; anything not listed here is a failure (see finishFailure).
func isLength(f string) bool { return f == "length" || f == "max_tokens" }

func completes(f string) bool {
	switch f {
	case "stop", "tool_calls", "function_call", "eos", "end_turn", "stop_sequence", "tool_use":
		return true
	}
	return isLength(f)
}
