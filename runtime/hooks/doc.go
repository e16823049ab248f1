// Package hooks runs the user's and the project's hook commands at the
// session's events, in the settings.json shape Claude Code users know:
//
//	{"hooks": {"PreToolUse": [{"matcher": "bash", "command": "./check.sh", "timeout_ms": 5000}]}}
//
// (the nested form {"matcher", "hooks": [{"type": "command", "command",
// "timeout"}]} is read too). Events: PreToolUse and PostToolUse (the
// matcher is a regular expression over the tool name, case-insensitive,
// "" or "*" for every tool), UserPromptSubmit, Stop and SessionStart.
//
// A hook gets the event as JSON on stdin. Exit 0 lets things go on; its
// stdout may be JSON with "decision" ("block"/"deny", "ask", "approve"),
// "reason", "additionalContext" and, for PreToolUse, "updatedInput" (new
// arguments, validated again by the tool runtime). Exit 2 blocks: a
// PreToolUse call fails with the hook's stderr as the reason the model
// reads; a UserPromptSubmit prompt is refused. On PreToolUse a hook that
// times out, cannot start or exits otherwise blocks the call (fail
// closed), with a message naming the hook.
//
// PreToolUse and PostToolUse are a tools.Hook, so their decisions go
// through the session's one approval service (runtime/tools), logged as
// decided by "hook". User hooks ($PTC_HOME/settings.json) run as the
// user's own commands; project hooks (.ptc/settings.json) are the
// repository's: each runs only once the user approved it through that
// service (remembered per workspace and definition in
// $PTC_HOME/hooks-trust.json, like a project MCP server), and then under
// the sandbox through the Exec the caller gives. Every run is a hook/run
// event. Output is capped and sanitised before anyone reads it.
package hooks
