package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"syscall"
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
			o, err := runShell(c, harness.ShellOptions{Workspace: ws, Mode: m, Network: network, Command: args[0], Timeout: timeout, Notice: stderrNotice})
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

// runShell runs the command on the resident shell server when one
// answers, else in this process and then starts a server for the next
// command (unless PTC_SH_SERVER=0).
func runShell(c *cobra.Command, o harness.ShellOptions) (sandbox.Outcome, error) {
	if os.Getenv(harness.ShellServerEnv) == "0" {
		return harness.RunShell(c.Context(), o)
	}
	sock, err := harness.ShellSocket()
	if err != nil {
		return harness.RunShell(c.Context(), o)
	}
	out, served, err := harness.RunShellResident(c.Context(), sock, o)
	if !served && o.Mode != sandbox.DangerFullAccess {
		startShellServer()
	}
	return out, err
}

// startShellServer starts `ptc sh-server` in the background, in a session
// of its own with no terminal, and leaves it (it exits when idle).
func startShellServer() {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	cmd := exec.Command(exe, "sh-server")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() == nil {
		_ = cmd.Process.Release()
	}
}

// newShServerCmd is the hidden `ptc sh-server` that `ptc sh` starts.
func newShServerCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "sh-server",
		Short:  "Serve ptc sh commands from a resident sandbox (started by ptc sh)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			sock, err := harness.ShellSocket()
			if err != nil {
				return err
			}
			idle := harness.ShellServerIdle
			if v := os.Getenv(harness.ShellServerEnv + "_IDLE"); v != "" {
				if idle, err = time.ParseDuration(v); err != nil || idle <= 0 {
					return fmt.Errorf("%s_IDLE must be a positive duration, not %q", harness.ShellServerEnv, v)
				}
			}
			return harness.ServeShell(c.Context(), sock, idle)
		},
	}
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
