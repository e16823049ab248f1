// Package harness composes and drives sessions: it is the one place where
// a preset, a set of settings, the sandbox host and a session log become
// a running agent. The CLI, `ptc bench`, the owner socket and future
// servers (TUI, subagents) all open sessions through it, so a session
// behaves the same whoever runs it.
//
//	Home      a ptc home: presets, sessions, spill area, one sandbox host
//	Open      create or resume a session (repairing a cut-short turn)
//	Session   Run a turn, Cancel it, Subscribe to events, Change settings
//	          between turns, Close
//	Toolset   a preset's tools as a registry, built from toolbox's catalog
//	          (also for ptc tools/sdk/exec); the session's children are
//	          the toolbox.Agents the subagent tools drive
//	Exec      one run_code program against the ptc preset's tools, no model
//	          (ptc exec); RunShell one command as the bash tool runs it (ptc sh)
//	Front     the session a front end shows, switched by /new and /resume
//	          (the TUI's backend; the web and editor front ends to come)
//
// Settings (session.Settings) are everything needed to continue a session
// exactly: preset, model and base URL (never the key), workspace, sandbox
// mode, approval policy, step budget and context-window override. They are
// resolved once at creation (defaults filled from the preset, paths made
// absolute) and recorded in the header; a later change, from flags given
// on resume or from Change, is a session/settings event. The approval
// policy is parsed once and given both to the sandbox tools (escalations)
// and to the tool runner.
//
// Dependency direction (DESIGN §2): cmd → harness → toolbox → {presets,
// ptc, sandbox} → runtime/*. Nothing under runtime imports this package.
package harness
