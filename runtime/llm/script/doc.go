// Package script is a model provider that replays replies from a JSON file
// (`--model script:FILE`), for demos and tests without network or key.
//
//	{"replies": [
//	  {"reasoning": "…", "text": "…",
//	   "tool_calls": [{"id": "call_1", "name": "bash",
//	                   "arguments": {"command": "ls"}}],   object, or a raw string sent verbatim
//	   "finish": "stop" | "length",
//	   "delay_ms": 50},                                     pause between streamed chunks
//	  {"error": {"status": 429, "message": "slow down", "retry_after_ms": 10}},
//	  {"error": {"kind": "context-overflow", "status": 400,
//	             "message": "maximum context length is 32768 tokens"}},
//	  {}                                                    an empty answer (ErrEmpty)
//	  {"summary": true, "text": "<summary>…</summary>"}     answers one summary request
//	  {"title": true, "text": "Fix the parser"}              answers one title request
//	],
//	 "summary": {"text": "…"},                              answers every later summary request
//	 "title": {"text": "…"},                                answers every later title request
//	 "agents": [{"match": "…", "replies": [...]}]}           a subagent's replies (see agents.go)
//
// Each Stream call consumes the next reply and streams it in realistic
// pieces; an error reply is one failed attempt. Running out of replies is
// an ErrScript failure, which the retry policy does not retry. A summary
// request (the side request of a compaction, llm.IsSummaryRequest) is
// answered by the replies marked "summary" in order, then by the
// top-level "summary", so compaction runs offline without disturbing the
// order of the step replies; a title request (llm.IsTitleRequest) the
// same way by the "title" replies. A script without one fails the title
// request, and the session keeps its first prompt's line.
package script
