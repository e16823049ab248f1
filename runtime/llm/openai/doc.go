// Package openai adapts any OpenAI-compatible chat-completions server
// (DeepSeek, OpenAI, vLLM, Ollama, OpenRouter, Groq, Mistral…) to
// llm.Provider. It speaks the wire itself (net/http, our own request and
// chunk types, our own SSE reader) because real servers stray from what
// SDK structs model; see RATIONALE.md.
//
// One Stream call is one streamed request:
//
//	llm.Request ──toWire──▶ POST {base}/chat/completions (stream, include_usage)
//	                                   │ SSE events (sseReader: comments and
//	                                   │ empty data skipped, any read split)
//	onChunk ◀── assembler ◀────────────┘ text (string or parts) / reasoning_content
//	                                      or reasoning / tool-call deltas / usage /
//	                                      error objects / finish_reason
//
// What comes out:
//   - a finish reason that completes an answer (stop, length, tool_calls and
//     synonyms), or [DONE] without one: the Response;
//   - an error object in a chunk, content_filter, error,
//     insufficient_system_resource or an unknown finish reason: a failed
//     attempt (*llm.Error) saying which;
//   - a stream that ends with neither a finish reason nor [DONE]: a failed,
//     retryable attempt, never a completed answer;
//   - a non-2xx status: a failed attempt classified by status and body, a
//     context-length 400 as llm.ErrContextOverflow with the sizes.
//
// Reasoning goes back on assistant tool-call messages in the field the
// server was seen streaming, else in the field the model table names for
// the model, else not at all. A server that rejects stream_options is
// asked again without it, and never sent it again by that Provider.
package openai
