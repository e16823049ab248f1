package tools

import "encoding/json"

// Writer is implemented by tools whose calls may change the workspace or
// anything outside the session: write and edit, a shell call that asks
// for a wider sandbox, an MCP tool its server does not mark read-only.
// While the session is read-only (plan mode, Env.ReadOnly) the Runner
// refuses a call for which Writes is true, after validation and before
// any hook or approval, so no tool body, hook or prompt can let it
// through. Tools that only read, or whose effects the sandbox already
// confines to read-only (a plain shell command), need not implement it.
type Writer interface {
	Writes(args json.RawMessage) bool
}

// Writes marks the calls for which f returns true as changing the
// workspace (see Writer). AlwaysWrites is the common f.
func Writes(f func(args json.RawMessage) bool) Option {
	return func(o *options) { o.writes = f }
}

// AlwaysWrites is the Writes predicate of tools every call of which
// changes files (write, edit).
func AlwaysWrites(json.RawMessage) bool { return true }

// byReadOnly is who refused a call in approval/decided.
const byReadOnly = "read-only"

// readOnly is the DENIED failure of a writing call while the session is
// read-only, or nil when the call may go on. The refusal is logged as an
// approval decision, so the audit trail shows every refused call.
func readOnly(env *Env, e *entry, call Call) *Error {
	if env.ReadOnly == nil || e.writer == nil {
		return nil
	}
	why := env.ReadOnly()
	if why == "" || !e.writer.Writes(call.Args) {
		return nil
	}
	decided(env, call, AnswerDeny, byReadOnly, why)
	return Errorf(CodeDenied, "%s was refused because %s", call.Name, why)
}
