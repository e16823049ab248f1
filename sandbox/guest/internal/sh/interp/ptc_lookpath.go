// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). In the sandbox the
// commands are builtins of the guest (and, when enabled, host programs),
// not files on a PATH, so command -v, type and hash found none of them
// and disagreed with which. PtcLookPath lets the embedder answer for
// them, and hash reports what it cannot find, as in bash.

package interp

// PtcLookPath sets how command -v, type and hash find a command that is
// neither a function nor a shell builtin: f gets the name and $PATH and
// returns the command's path.
func PtcLookPath(f func(name, pathVar string) (path string, ok bool)) RunnerOption {
	return func(r *Runner) error {
		r.ptcLook = f
		return nil
	}
}

// lookPath finds a command on PATH, through the embedder's lookup when
// there is one.
func (r *Runner) lookPath(name string) (string, error) {
	if r.ptcLook != nil {
		if p, ok := r.ptcLook(name, r.envGet("PATH")); ok {
			return p, nil
		}
	}
	return LookPathDir(r.Dir, r.writeEnv, name)
}

// ptcHash is the hash builtin: nothing is cached, but every named command
// must exist.
func (r *Runner) ptcHash(args []string) exitStatus {
	var exit exitStatus
	names := args
	for len(names) > 0 && len(names[0]) > 1 && names[0][0] == '-' {
		if names[0] == "-r" || names[0] == "--" {
			names = names[1:]
			continue
		}
		if names[0] == "-l" || names[0] == "-t" || names[0] == "-d" {
			names = names[1:]
			continue
		}
		r.errf("hash: %s: invalid option\n", names[0])
		exit.code = 2
		return exit
	}
	if len(args) == 0 {
		r.errf("hash: hash table empty\n")
		return exit
	}
	for _, n := range names {
		if IsBuiltin(n) || r.Funcs[n] != nil {
			continue
		}
		if _, err := r.lookPath(n); err != nil {
			r.errf("hash: %s: not found\n", n)
			exit.code = 1
		}
	}
	return exit
}
