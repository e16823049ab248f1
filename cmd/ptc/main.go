// Command ptc is the CLI of the ptc coding-agent runtime. It stays thin:
// it parses flags, wires packages together and prints. See README.md for
// the command list.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// exitError carries a process exit code through cobra (ptc sh, ptc exec).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	root := newRootCmd()
	if err := root.Execute(); err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		fmt.Fprintln(os.Stderr, "ptc:", err)
		os.Exit(1)
	}
}

func newRootCmd() *cobra.Command {
	root := newInteractiveCmd()
	root.SilenceUsage = true
	root.SilenceErrors = true
	root.AddCommand(
		newRunCmd(),
		newExecCmd(),
		newShCmd(),
		newSdkCmd(),
		newToolsCmd(),
		newPresetsCmd(),
		newModelsCmd(),
		newSessionsCmd(),
		newSessionCmd(),
		newAttachCmd(),
		newBenchCmd(),
		newMcpCmd(),
	)
	return root
}
