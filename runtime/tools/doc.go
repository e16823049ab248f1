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
//	   ├─ parse + validate input schema → INVALID_ARGS (past MaxArgBytes
//	   │                  before parsing; every violation with its JSON
//	   │                  pointer, one line)
//	   ├─ admit ......... one Need for the session's Approvals (below):
//	   │                  read-only (Env.ReadOnly and the tool Writes these
//	   │                  arguments) → refused; a pre-execute hook's deny →
//	   │                  refused, its ask → asked; the tool's Escalation
//	   │                  (a wider sandbox mode) or RequiresApproval → asked
//	   ├─ execute ....... own goroutine, timeout → TOOL_TIMEOUT,
//	   │                  ctx cancelled → ABORTED, panic → TOOL_FAILED
//	   ├─ post-execute hooks: replace the outcome or add notes
//	   ├─ output validation → INVALID_TOOL_OUTPUT
//	   ├─ render (Tool.Render; notes appended)
//	   └─ truncate ...... over MaxResultBytes: head + tail + note, full
//	                      text spilled to <Env.SpillDir>/<callId>.txt
//
// Every decision goes through one service, Approvals, per session:
//
//	Runner.admit ─┐  tool approvals, escalations, hooks, read-only
//	mcp.Admit ────┼─► Decide(Need) ─► refused? ─────────────► DENIED  (by read-only / hook)
//	              │        │          grant covers it? ─────► allowed (by session-grant)
//	              │        │          policy never? ────────► DENIED  (by policy)
//	ask_user_ ────┤        ▼
//	question,     └─► Ask ─► registry of open requests (ids r1, r2…)
//	exit_plan_mode          │  approval/asked logged, then shown to every
//	                        │  front end: Attend(Answerer) prompts (line
//	                        │  mode, TUI), Join + Subscribe + Answer(id)
//	                        │  (serve, editors); first answer wins, later
//	                        │  ones get ErrAnswered
//	                        ▼
//	             reply ─► approval/decided (id, by user, grant) ─► allow-once /
//	                      allow-session (grant stored: tool, or tool + mode +
//	                      exact command or chosen pattern) / deny → DENIED;
//	             no front end → DENIED; turn cancelled → ABORTED
//
// The grants and open requests live in the log: Restore rebuilds the
// grants when a session resumes, PendingFrom lists what a log left open.
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
