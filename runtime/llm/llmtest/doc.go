// Package llmtest is an in-process, OpenAI-compatible chat-completions
// server for tests. It streams realistic server-sent events the way DeepSeek
// and OpenAI do:
//
//	data: {"choices":[{"delta":{"role":"assistant","content":""}}]}
//	data: {"choices":[{"delta":{"reasoning_content":"Let me"}}]}      reasoning, split
//	data: {"choices":[{"delta":{"content":"Hel"}}]}                   text, split
//	data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"bash","arguments":""}}]}}]}
//	data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"comm"}}]}}]}
//	data: {"choices":[{"delta":{},"finish_reason":"tool_calls"}]}
//	data: {"choices":[],"usage":{"prompt_tokens":…,"prompt_cache_hit_tokens":…}}
//	data: [DONE]
//
// Each request consumes the next scripted Turn; a Turn can instead fail
// with an HTTP status (429 with Retry-After, 500, 401…), break off with an
// error event, drip slowly, hang until the client goes away, or replay the
// bytes of a recorded stream or error body verbatim (Turn.Raw), split into
// pieces of any size. Every
// request body is recorded so a test can assert on what the client sent —
// typically that the second request carries the assistant tool call
// followed by its role:tool result.
package llmtest
