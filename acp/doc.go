// Package acp is `ptc acp`: ptc sessions driven by an editor over the
// Agent Client Protocol (ACP v1, JSON-RPC 2.0, one message per line on
// stdin/stdout). It is a front end over harness.Session, as serve/ is;
// the protocol itself is github.com/coder/acp-go-sdk's (pinned in
// go.mod), so this package only maps.
//
//	editor ──stdin/stdout──► acp.Agent (the SDK's AgentSideConnection)
//	                           │ initialize, session/new|load|resume|list|close,
//	                           │ session/prompt, session/cancel, session/set_mode
//	                           ▼
//	                         conv (one per open session) ── harness.Session
//	                           ├─ translator  log events → session/update (chunks,
//	                           │              tool_call / tool_call_update, plan, mode)
//	                           ├─ outbox      the updates in log order, sent by one
//	                           │              goroutine, drained before a prompt returns
//	                           └─ asker       the session's tools.Answerer: approvals,
//	                                          plans and questions as session/request_permission
//
// Everything runs in ptc's own sandbox with ptc's approvals: the client's
// fs/* and terminal/* capabilities are never used, so an editor cannot
// widen what a session may do, and the session log stays the one record.
// session/load replays the stored log through the same translator (text
// from assistant/message instead of the streamed chunks), then the
// session continues. Stdout carries nothing but protocol frames: ClaimStdout
// moves the process's own stdout to the log before anything runs.
package acp
