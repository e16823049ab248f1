// Package wirecorpus replays the wire corpus — streams and error bodies
// that third parties recorded from real OpenAI-compatible servers, kept
// outside the repository in ../shared/wire-corpus — against ptc, and
// checks what the case files say must come out.
//
// A case (cases/NAME.json) names a model, the user turns, the replies the
// server gives in order (a transcript file, an HTTP status for error
// bodies, optionally "split": "bytes:N" to deliver it N bytes at a time)
// and the expectations: the exit status, text the error must contain, how
// many requests the server must see, the assistant answers ptc records
// (content, reasoning, tool calls, finish, usage) and what given requests
// must carry (the tool calls sent back, the tool results right after them,
// reasoning_content).
//
// The same checks run twice: on the adapter alone (Drive plays the turns
// the way the agent loop does) and on the built ptc binary (cmd/ptc's
// corpus test), each against a replay server from Serve over loopback.
//
//	dir := wirecorpus.Dir(t)          // skips if absent; fails under PTC_REQUIRE_TOOLS=1
//	cases, _ := wirecorpus.Load(dir)
//	srv := wirecorpus.Serve(t, c)     // an llmtest.Server replaying c's replies
//	… run ptc against srv.URL, fill an Observed …
//	problems := c.Check(obs)
package wirecorpus
