// Package tui is ptc's interactive session on a terminal (Bubble Tea,
// Bubbles, Lip Gloss, Glamour). It drives a Backend — in ptc a harness
// session — and draws what the session's events say:
//
//	Backend.Subscribe ──► tracker (file snapshots for diffs, on the
//	      appending goroutine) ──► pump (never blocks the appender; batches)
//	      ──► Model.Update ──► transcript (one reducer: live turns and the
//	      earlier turns of a resumed session) ──► renderer ──► View
//
//	keys ──► input (history, @path completion, slash commands)
//	     ──► Backend.Run / Compact / Change / Switch, off the event loop
//	approvals, questions, plans ──► Answerer ──► dialog ──► answer
//
// Screen, top to bottom: the conversation (scrolls; ctrl+o expands tool
// output, ctrl+t shows reasoning), completions, the input or a dialog,
// the status line (model, preset, sandbox, tokens, cache share, cost,
// context use, plan mode, goal, subagents).
//
// Everything a model, tool or repository controls is sanitised with
// internal/termsafe when it enters the transcript, so no view prints it
// raw. Golden screens (testdata/*.golden, `go test -update`) are the
// views drawn through a virtual terminal (charmbracelet/x/vt).
package tui
