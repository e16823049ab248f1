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

// usageError is a command line ptc cannot run as typed (a missing or
// extra argument, an unknown flag): it prints with the command's one-line
// usage and where the rest is (not the 40 lines of every flag).
type usageError struct {
	err   error
	usage string
}

// newUsageError is err for command c.
func newUsageError(c *cobra.Command, err error) usageError {
	return usageError{err: err, usage: fmt.Sprintf("Usage: %s\nsee `%s --help` for its flags\n", c.UseLine(), c.CommandPath())}
}

func (e usageError) Error() string { return e.err.Error() }

func main() {
	root := newRootCmd()
	if err := root.Execute(); err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		fmt.Fprintln(os.Stderr, "ptc:", err)
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprint(os.Stderr, ue.usage)
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// environmentHelp names what ptc reads from the environment; the root and
// run help both show it.
const environmentHelp = `Models and keys:
  DEEPSEEK_API_KEY   DeepSeek's API (default model deepseek-v4-flash at https://api.deepseek.com)
  OPENAI_API_KEY     OpenAI (default model gpt-4o-mini) or any OpenAI-compatible server
  OPENAI_BASE_URL    that server's API root, e.g. http://127.0.0.1:8000/v1 (or --base-url)
  --model script:FILE replays scripted replies: no key, no network (try examples/hello.json)
Files:
  PTC_HOME           sessions, input history and models.yaml (default ~/.ptc; --home overrides)`

func newRootCmd() *cobra.Command {
	root := newInteractiveCmd()
	root.Long = `ptc is a coding agent built around programmatic tool calling: the model writes short
TypeScript programs that call tools through a typed SDK, and shell and file tools run in a
WebAssembly sandbox.

Run ptc alone in a repository for the interactive session: a terminal UI with markdown
answers, live tool activity, approvals and slash commands (/help lists them). With stdin
or stdout not a terminal it reads one prompt per line instead. ptc run PROMPT runs one
turn headless; ptc sessions lists earlier sessions and ptc --resume ID continues one.

` + environmentHelp
	root.Version = buildVersion()
	root.SetVersionTemplate("{{.Version}}\n")
	root.SilenceUsage = true
	root.SilenceErrors = true
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return newUsageError(c, err)
	})
	root.AddCommand(
		newVersionCmd(),
		newRunCmd(),
		newExecCmd(),
		newShCmd(), newShServerCmd(),
		newSdkCmd(),
		newToolsCmd(),
		newPresetsCmd(),
		newModelsCmd(),
		newSessionsCmd(),
		newSessionCmd(),
		newRewindCmd(),
		newConfigCmd(),
		newAttachCmd(),
		newBenchCmd(),
		newMcpCmd(),
		newSkillsCmd(),
		newWorkerCmd(),
		newNatsCmd(),
		newServeCmd(),
		newAcpCmd(),
	)
	explainArgs(root)
	return root
}

// explainArgs makes every argument error carry the command's usage, so a
// missing argument says what the command takes.
func explainArgs(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				if len(args) == 0 {
					err = fmt.Errorf("%s needs an argument (%v)", cmd.CommandPath(), err)
				}
				return newUsageError(cmd, err)
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		explainArgs(sub)
	}
}
