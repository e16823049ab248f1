// Package shell runs POSIX shell command strings inside the sandbox guest.
//
// It wraps the mvdan.cc/sh/v3 interpreter and answers every external
// command with a builtin written in Go over plain file APIs, because the
// guest (GOOS=wasip1) has no processes to start:
//
//	command string ──syntax.Parse──▶ interp.Runner ──ExecHandler──▶ builtins table
//	                                   │ (echo, cd, test, read … are
//	                                   │  the interpreter's own)
//	                                   └─ unknown name → exit 127 + escalation hint
//
// The package builds for linux as well as wasip1, so its tests run natively
// against a temporary directory; the wasm build is tested through the
// embedded guest in sandbox/guest/wasm.
package shell
