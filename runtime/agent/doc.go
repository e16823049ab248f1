// Package agent is the loop of DESIGN.md §4: an inbox of user input, and
// for each input a turn of steps, each step one model request (retried as
// attempts) plus the tool calls it asked for.
//
//	RunTurn(input)
//	  turn/start
//	  step 1..n:  step/start · snapshot? · user/message*
//	              attempt 1..k: request/header? → fit (tool/pruned* · compaction/*?)
//	                            → context/meter → stream (assistant/chunk*)
//	                            failure → assistant/attempt · llm/retry · sleep
//	                            (context-overflow: fit again, once per step)
//	              assistant/message
//	              tool calls → tool/call · tool/result (model order)
//	              step/end
//	  turn/end{reason}
//
// Every fact goes through a Log (the session's single writer); requests
// are rebuilt from that log (prompt.Builder, equal to prompt.BuildRequest),
// so what was sent can always be reproduced. Before each request the
// compaction manager (runtime/compact) meters it and, when it would pass
// the threshold, prunes old tool results and compacts; an input larger
// than the whole window is refused before it is logged. Cancelling the context cancels the running turn:
// started tool calls drain and commit, unstarted ones get synthetic
// ABORTED_BEFORE_DISPATCH results, a half-streamed answer is kept as an
// interrupted message, and the turn ends "aborted".
package agent
