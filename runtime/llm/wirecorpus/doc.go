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
//	wirecorpus.Replay(t, func(t *testing.T, c wirecorpus.Case, url string) wirecorpus.Observed {
//		… run ptc against url (a replay server of c's replies), fill an Observed …
//	}) // one subtest per case; skips without the corpus, fails under PTC_REQUIRE_TOOLS=1
//
// Dir, Load, Serve and Case.Check are the pieces Replay is made of.
package wirecorpus
