// Package openai adapts any OpenAI-compatible chat-completions server
// (DeepSeek, OpenAI, vLLM, Ollama, OpenRouter…) to llm.Provider, on top of
// github.com/sashabaranov/go-openai.
//
// One Stream call is one streamed request:
//
//	llm.Request ──toWire──▶ POST {base}/chat/completions (stream, include_usage)
//	                                   │ SSE chunks (RecvRaw)
//	onChunk ◀── assembler ◀────────────┘  text / reasoning_content / tool-call
//	                                       deltas by index / usage / finish
//
// Failures come back as *llm.Error with a kind the retry policy
// understands; the HTTP response is observed through a wrapping HTTPDoer so
// that Retry-After survives go-openai's error handling.
package openai
