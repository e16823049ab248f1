package main

import (
	"bytes"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/sandbox"
	"github.com/ptc-dev/ptc/toolbox"
)

// newShCmd is `ptc sh`: one command run exactly as the bash tool runs it,
// with its output printed and its exit code returned.
func newShCmd() *cobra.Command {
	var workspace, mode string
	var timeout time.Duration
	var network bool
	cmd := &cobra.Command{
		Use:   "sh [--workspace DIR] [--sandbox MODE] [--timeout D] 'COMMAND'",
		Short: "Run one shell command in the sandbox, as the bash tool would",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			m, err := sandbox.ParseMode(mode)
			if err != nil {
				return err
			}
			ws, err := harness.ResolveWorkspace(workspace, nil)
			if err != nil {
				return err
			}
			o, err := harness.RunShell(c.Context(), harness.ShellOptions{Workspace: ws, Mode: m, Network: network, Command: args[0], Timeout: timeout, Notice: stderrNotice})
			if err != nil {
				return err
			}
			os.Stdout.Write(o.Stdout)
			os.Stderr.Write(o.Stderr)
			if o.Note != "" {
				fmt.Fprintf(os.Stderr, "ptc sh: %s\n", o.Note)
			}
			if hint := hostHint(o.ExitCode, o.Stderr, m); hint != "" {
				fmt.Fprintln(os.Stderr, hint)
			}
			if o.ExitCode != 0 {
				return exitError{code: o.ExitCode & 0xff}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&workspace, "workspace", "", "workspace directory (default: the current directory)")
	cmd.Flags().StringVar(&mode, "sandbox", string(sandbox.DefaultMode), "sandbox mode: read-only, workspace-write, git-write or danger-full-access")
	cmd.Flags().BoolVar(&network, "network", false, "let host programs the command runs reach the network (off by default)")
	cmd.Flags().DurationVar(&timeout, "timeout", toolbox.DefaultBashTimeout, "stop the command after this long")
	return cmd
}

// hostHint translates the sandbox's "not found" message for a person: it
// tells the model the tool field (sandbox_permissions), a person at
// `ptc sh` needs the flag.
func hostHint(code int, stderr []byte, mode sandbox.Mode) string {
	if code != 127 || mode == sandbox.DangerFullAccess || !bytes.Contains(stderr, []byte("sandbox_permissions")) {
		return ""
	}
	return "ptc sh: to run it as a host program without the sandbox, rerun with --sandbox danger-full-access"
}

// stderrNotice prints a sandbox notice (a cold compile) as one line on
// stderr, so a first run that takes seconds says why.
func stderrNotice(msg string) { fmt.Fprintln(os.Stderr, "ptc: "+msg) }
