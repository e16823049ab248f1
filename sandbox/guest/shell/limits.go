package shell

import "fmt"

// The guest's caps on what one command is given, Linux's own so a script
// that runs under bash with GNU tools runs here and one that fails there
// fails here, with one sentence instead of an out-of-memory stop later:
//
//   - MaxArgBytes: the arguments of one command (builtins that bash would
//     exec, and host programs), each counted with its NUL, as ARG_MAX.
//     For a host program its exported environment counts too, as for
//     execve.
//   - MaxWordBytes: one argument, as MAX_ARG_STRLEN.
//
// Shell builtins (echo, printf, read, test…) take any size, as in bash.
// A script's own text is capped by the host (sandbox.MaxCommandBytes),
// and a word or variable that outgrows memory ends with the host's
// out-of-memory sentence.
const (
	MaxArgBytes  = 2 << 20
	MaxWordBytes = 128 << 10
)

// argLimit returns the sentence that ends a command whose arguments (and
// env, the exported environment's size, for a host program) are past the
// caps, or "".
func argLimit(args []string, env int) string {
	total := env
	for _, a := range args {
		if len(a) >= MaxWordBytes {
			return fmt.Sprintf("%s: argument list too long: one argument is %d bytes, the limit is %d (Linux's MAX_ARG_STRLEN)", args[0], len(a), MaxWordBytes)
		}
		total += len(a) + 1
	}
	if total > MaxArgBytes {
		what := "arguments"
		if env > 0 {
			what = "arguments and environment"
		}
		return fmt.Sprintf("%s: argument list too long: %d bytes of %s, the limit is %d (Linux's ARG_MAX)", args[0], total, what, MaxArgBytes)
	}
	return ""
}
