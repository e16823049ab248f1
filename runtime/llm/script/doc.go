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
//	  {}                                                    an empty answer (ErrEmpty)
//	]}
//
// Each Stream call consumes the next reply and streams it in realistic
// pieces; an error reply is one failed attempt. Running out of replies is
// an ErrScript failure, which the retry policy does not retry.
package script
