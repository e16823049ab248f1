package tools

import (
	"context"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Escalation is what a call asks for beyond the session's sandbox: to run
// in a wider Mode than Current. The tool declares it (Escalator); the
// pipeline puts it to the Approvals service before the body runs, and the
// body learns the outcome from Approved. A session grant for it covers the
// tool in Mode for exactly Covers (the command or path the user is shown),
// or the pattern the user chose, never every call in that mode.
type Escalation struct {
	Mode    string `json:"mode"`
	Current string `json:"current"`
	// Unconfined is true when the call would run on the host without any
	// sandbox (danger-full-access for a shell).
	Unconfined bool `json:"unconfined,omitempty"`
	// Justification is the model's reason, as it gave it.
	Justification string `json:"justification"`
	// Covers is what a grant covers: the command, or the path written.
	Covers string `json:"covers"`
}

// Escalator is implemented by tools whose calls may ask to run in a wider
// sandbox mode (the sandbox_permissions of bash, write and edit). The
// Runner asks it after validation, the read-only gate and the hooks: nil
// means the call asks for nothing more; an error refuses the call (an
// *Error keeps its code, e.g. INVALID_ARGS for a mode that is not wider).
// It must not run anything.
type Escalator interface {
	Escalation(ctx context.Context, call Call) (*Escalation, error)
}

// Escalates declares a tool's escalation (see Escalator) with f.
func Escalates(f func(ctx context.Context, call Call) (*Escalation, error)) Option {
	return func(o *options) { o.escalate = f }
}

type approvedKey struct{}

// Approved returns the escalation the pipeline approved for the call
// running on ctx. A tool body runs in the wider mode only when it is
// there and matches what it declared, so a body reached without the
// pipeline (or after a denial) never escalates.
func Approved(ctx context.Context) (Escalation, bool) {
	e, ok := ctx.Value(approvedKey{}).(Escalation)
	return e, ok
}

func withApproved(ctx context.Context, e Escalation) context.Context {
	return context.WithValue(ctx, approvedKey{}, e)
}

// escalationGrant is what a session grant for e covers.
func escalationGrant(tool string, e *Escalation) *session.Grant {
	return &session.Grant{Tool: tool, Mode: e.Mode, Command: e.Covers}
}
