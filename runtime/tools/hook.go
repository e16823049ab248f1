package tools

import (
	"context"
	"encoding/json"
)

// Action is a pre-execute hook's decision.
type Action int

// Actions, in increasing strength: when several hooks speak, Deny beats
// Ask beats Allow.
const (
	// Allow raises no objection (the zero value).
	Allow Action = iota
	// Ask sends the call through the approval step.
	Ask
	// Deny refuses the call with a DENIED result carrying Reason.
	Deny
)

// Verdict is what a pre-execute hook returns. Args, when set with Allow
// or Ask, replaces the call's arguments: they are validated against the
// tool's schema again (invalid ones fail the call, naming the hook), and
// later hooks, the approval and the tool see them.
type Verdict struct {
	Action Action
	Reason string
	Args   json.RawMessage
}

// Outcome is what a tool produced, as seen by post-execute hooks: the
// value (nil on failure), the failure if any, and notes appended to the
// rendered text. A hook replaces the result by changing Value/Err and
// annotates it by appending to Notes.
type Outcome struct {
	Value any
	Err   *Error
	Notes []string
}

// Hook observes or steers calls. Pre runs after validation and before
// approval; Post runs after execution and before output validation and
// rendering. Either may be nil. Hooks must be safe for concurrent use:
// concurrency-safe calls run in parallel.
type Hook struct {
	Name string
	Pre  func(ctx context.Context, call Call) Verdict
	Post func(ctx context.Context, call Call, out Outcome) Outcome
}
