// Package toolbox holds the definition of every built-in tool: its name,
// its input and output schemas, the Go types its arguments decode into and
// its value is, its description (the .md file named after the tool), its
// options (safe, writes, renderer) and its body. One file per tool:
//
//	bash read write edit glob grep     the standard preset's sandbox tools
//	shell str_replace_editor           the minimal preset's
//	todo_write ask_user_question       tools that need only the Env
//	exit_plan_mode                     over runtime/plan's switch
//	create_goal get_goal update_goal   over runtime/goal's keeper
//	subagent agent_output agent_list   over Agents, the session's children
//	agent_stop                         (harness implements it)
//	web_search web_fetch               over runtime/web's seam and policy
//	run_code                           over package ptc's engine
//	noop                               hidden: tests and benchmarks
//
// The capability each tool uses stays where it is (the sandbox host, the
// TypeScript engine, the plan switch, the goal keeper, the child
// sessions); only the definition lives here, so one place answers "which
// tools are there and what do they take". sandbox.go is what the sandbox
// tools share: the per-session record of what the model has read, the
// guest file operations, and the escalation of one call to a wider mode.
//
// The catalog (catalog.go) lists every tool with what its constructor
// needs; harness builds a preset's registry from it and validates presets
// against PresetNames. Every tool is tools.Typed, and a test checks each
// one's schemas against its Go types (tools.SchemaMatches).
//
// Dependency direction: harness → toolbox → {presets, ptc, sandbox} →
// runtime/*; nothing below imports this package.
package toolbox
