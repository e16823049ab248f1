// Package tools is the tool runtime: tool definitions, the registry, JSON
// Schema validation, the per-call pipeline, approval, presentation and the
// scheduler that runs the calls of one step.
//
// A tool failure is a Result with IsError set, "Error: <message>" text and
// a stable Code; a Go error from this package means broken plumbing (a bad
// schema at registration, a duplicate tool name).
//
// One call through Runner.Dispatch:
//
//	Call{Name, Raw}
//	   │
//	   ├─ lookup ........ not visible → UNKNOWN_TOOL (closest names; under
//	   │                  presentation ptc a hint to use run_code), before
//	   │                  any hook or approval runs
//	   ├─ parse + validate input schema → INVALID_ARGS (every violation
//	   │                  with its JSON pointer, one line)
//	   ├─ read-only ..... Env.ReadOnly says why (plan mode) and the tool
//	   │                  Writes these arguments → DENIED, logged as an
//	   │                  approval decision by "read-only"
//	   ├─ pre-execute hooks: allow / deny (→ DENIED) / ask
//	   ├─ approval ...... tool.RequiresApproval or a hook asked:
//	   │                  session grant? policy never → DENIED;
//	   │                  policy ask → Answerer (allow-once, allow-session,
//	   │                  deny); no answerer → DENIED (fails closed)
//	   ├─ execute ....... own goroutine, timeout → TOOL_TIMEOUT,
//	   │                  ctx cancelled → ABORTED, panic → TOOL_FAILED
//	   ├─ post-execute hooks: replace the outcome or add notes
//	   ├─ output validation → INVALID_TOOL_OUTPUT
//	   ├─ render (Tool.Render; notes appended)
//	   └─ truncate ...... over MaxResultBytes: head + tail + note, full
//	                      text spilled to <Env.SpillDir>/<callId>.txt
//
// The step scheduler (Runner.RunStep) admits the calls of one model step
// through a Gate in the model's order: concurrency-safe calls share a pool,
// any other call runs alone. The observer hears CallStarted before each
// body and CallFinished strictly in the model's order, so the agent can
// append tool/call and tool/result in that order whatever order the bodies
// finish in.
//
// Where the Env comes from: Dispatch reads tools.EnvFrom(ctx) and fills
// every empty field from RunnerConfig.Env, then puts the merged Env (with
// Dispatcher defaulting to the Runner itself) on the context of the tool
// body. The agent therefore either configures the Runner once per session
// or passes a per-turn Env on the context; both work.
package tools
