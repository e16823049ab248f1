// Package mcp makes the tools of MCP (Model Context Protocol) servers ptc
// tools, on the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
//	.mcp.json / $PTC_HOME/mcp.json / --mcp-config ──Load──▶ []Server
//	        │ Admit: project servers only once the user approved them (Trust)
//	        ▼
//	Start ──▶ Manager ── one client per server (stdio: a command; http: a URL)
//	             │ tools/list (every page, schemas kept as raw JSON)
//	             ▼
//	         Tools(): mcp__<server>__<tool> as tools.Tool ──▶ the registry
//	             ▲
//	         Refresh() at a step boundary, after tools/list_changed or a
//	         reconnection with another list
//
// The user's own servers ($PTC_HOME/mcp.json, --mcp-config) run as the
// user runs them, with the user's environment and rights. A server from a
// repository's .mcp.json needs the user's approval, bound to its whole
// definition and the files its command line names (Pin), checked again
// before every start; a project's stdio server also runs confined,
// through the Confiner the caller gives (bubblewrap in ptc), unless its
// definition asks to run unconfined and the approval said so. A stdio server's stderr goes to a log file, never the
// terminal; a broken connection is retried with backoff, and a call in
// flight when it broke fails with TOOL_OUTCOME_UNKNOWN.
//
// A result becomes the value a run_code program receives: structured
// content (validated against the tool's output schema by the registry),
// else text that parses as JSON, else the text, else an array of parts;
// isError rejects with ToolCallError. This package knows nothing of wasm
// or JavaScript.
package mcp
