// Package plan is plan mode: the agent explores the workspace read-only,
// proposes a plan with exit_plan_mode, and starts changing things only
// once the user approved it.
//
// Plan mode is enforced, not advised. While it is on, Mode.ReadOnly gives
// the reason that tools.Env.ReadOnly carries to every call: the tool
// pipeline refuses every call whose tool Writes (write, edit, an
// escalation, an MCP tool not marked read-only) and the sandbox tools run
// every tier read-only (guest builtins, file operations, host programs).
// The prompt section only explains the workflow. The exit_plan_mode tool
// is defined in package toolbox, over Mode.
//
//	plan/mode{active}        --plan, /plan, the preset's default
//	exit_plan_mode{plan}     → the user (tools.KindPlan question)
//	   approve               → plan/mode{active:false, plan} + todo/write
//	                           (the plan's steps), the work starts
//	   feedback              → the call fails with the feedback as text
//	   nobody to ask         → the run stops, plan mode stays on
//	   plan mode off         → the call fails (the tool stays listed, so
//	                           the tool list and the prompt cache never
//	                           change)
package plan
