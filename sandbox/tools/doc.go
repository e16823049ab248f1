// Package sandboxtools holds the shell and file tools (bash, read, write,
// edit, glob, grep, and the minimal preset's shell and
// str_replace_editor). Every file access they make on behalf of the model
// runs inside the wasm guest through the same os.Root mount as the shell;
// the only host-side execution is the escalated host shell of
// danger-full-access.
package sandboxtools
