//go:build ptcspec

package shell

import (
	"fmt"
	"io"

	"github.com/ptc-dev/ptc/sandbox/guest/shellspec"
)

// specCommands are the Oils spec helpers (argv.py, printenv.py ...) as
// builtins. Only a guest built with the ptcspec tag (the spec-compat
// harness in sandbox/guest/shellspec builds one) has them; the embedded
// guest never does.
var specCommands = func() map[string]builtinFunc {
	m := map[string]builtinFunc{}
	for name, h := range shellspec.Helpers {
		m[name] = func(c *cmd, args []string) int {
			return h(shellspec.Proc{
				Stdin: c.stdin, Stdout: c.stdout, Stderr: c.stderr,
				Getenv: func(name string) (string, bool) {
					v := c.hc.Env.Get(name)
					return v.String(), v.IsSet() && v.Exported
				},
				FD: c.fd,
			}, args)
		}
	}
	return m
}()

// fd is the reader behind descriptor n of the command, if the shell set
// one up (the interpreter's HandlerContext.PtcFD).
func (c *cmd) fd(n int) (io.Reader, error) {
	if r, _, ok := c.hc.PtcFD(n); ok && r != nil {
		return r, nil
	}
	return nil, fmt.Errorf("descriptor %d is not open", n)
}
