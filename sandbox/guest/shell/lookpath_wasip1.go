package shell

import "mvdan.cc/sh/v3/interp"

// In the guest (built with the interpreter overlay) command -v, type and
// hash find commands as the sandbox runs them: builtins at /usr/bin/NAME,
// then host programs. Native builds use the unpatched interpreter, which
// has no such option, hence the wasip1-only file.
func init() { runnerOptions = append(runnerOptions, interp.PtcLookPath(LookCommand)) }
