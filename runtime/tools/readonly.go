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

// readOnly is why a writing call is refused while the session is
// read-only, or "" when it may go on. Admit turns it into a DENIED
// decision logged as by "read-only", so the audit trail shows every
// refused call.
func readOnly(env *Env, e *entry, call Call) string {
	if env.ReadOnly == nil || e.writer == nil {
		return ""
	}
	why := env.ReadOnly()
	if why == "" || !e.writer.Writes(call.Args) {
		return ""
	}
	return why
}

// mode is the sandbox mode a call runs in without escalation: read-only
// while the session is, else the mode in force.
func (env *Env) mode() string {
	if env.ReadOnly != nil && env.ReadOnly() != "" && env.Mode != "" {
		return "read-only"
	}
	return env.Mode
}
