package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/harness"
	clipper "github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/ptc"
	"github.com/ptc-dev/ptc/sandbox"
)

// newExecCmd is `ptc exec`: one run_code program against the ptc preset's
// tools, with no model. Nested calls go through the same Runner pipeline
// as in a session; approvals are denied (there is nobody to ask).
func newExecCmd() *cobra.Command {
	var workspace, mode, output, home string
	var timeout time.Duration
	var network bool
	cmd := &cobra.Command{
		Use:   "exec [--workspace DIR] [--sandbox MODE] [--timeout D] [--output text|json] FILE.ts|-",
		Short: "Run a TypeScript program against the ptc tools, without a model",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if output != "text" && output != "json" {
				return fmt.Errorf("--output must be text or json, not %q", output)
			}
			code, err := readProgram(args[0], c.InOrStdin())
			if err != nil {
				return err
			}
			m, err := sandbox.ParseMode(mode)
			if err != nil {
				return err
			}
			ws, err := harness.ResolveWorkspace(workspace, nil)
			if err != nil {
				return err
			}
			h, err := harness.OpenHome(home)
			if err != nil {
				return err
			}
			defer h.Close()
			h.SetNotice(stderrNotice)
			o, spill, err := h.Exec(c.Context(), harness.ExecOptions{Workspace: ws, Mode: m, Network: network, Code: code, Timeout: timeout})
			if err != nil {
				return err
			}
			if err := printExec(c.OutOrStdout(), output, o, code, spill); err != nil {
				return err
			}
			if !o.OK() {
				return exitError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&workspace, "workspace", "", "workspace directory (default: the current directory)")
	cmd.Flags().StringVar(&mode, "sandbox", string(sandbox.DefaultMode), "sandbox mode: read-only, workspace-write, git-write or danger-full-access")
	cmd.Flags().BoolVar(&network, "network", false, "let host programs the sandbox runs reach the network (off by default)")
	cmd.Flags().DurationVar(&timeout, "timeout", ptc.DefaultLimits.Timeout, "wall-time budget of the program (at most 10m)")
	cmd.Flags().StringVar(&output, "output", "text", "output format: text or json")
	cmd.Flags().StringVar(&home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	return cmd
}

func readProgram(arg string, stdin io.Reader) (string, error) {
	var b []byte
	var err error
	if arg == "-" {
		b, err = io.ReadAll(stdin)
	} else {
		b, err = os.ReadFile(arg)
	}
	if err != nil {
		return "", fmt.Errorf("cannot read the program: %w", err)
	}
	return string(b), nil
}

// execJSON is the `ptc exec --output json` shape of DESIGN.md §11.
type execJSON struct {
	OK     bool            `json:"ok"`
	Logs   []string        `json:"logs"`
	Result json.RawMessage `json:"result"`
	Error  *execError      `json:"error"`
	Calls  []execCall      `json:"calls"`
}

type execError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Line    int    `json:"line"`
}

type execCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	IsError   bool   `json:"isError"`
}

// printExec prints the outcome with the cap the model sees: logs and
// result within the visible budget, the rest saved under spill and
// pointed to; each call's arguments within its share of the budget. Text output is made safe for a terminal.
func printExec(w io.Writer, format string, o *ptc.Outcome, code, spill string) error {
	limit := ptc.DefaultLimits.VisibleOutput
	if format == "text" {
		_, err := fmt.Fprintln(w, termsafe.String(ptc.RenderVisible(o, code, limit, spill, "exec")))
		return err
	}
	o = ptc.Visible(o, limit, spill, "exec")
	j := execJSON{OK: o.OK(), Logs: o.Logs, Result: o.Result, Calls: []execCall{}}
	if len(j.Result) == 0 {
		j.Result = json.RawMessage("null")
	}
	if f := o.Failure; f != nil {
		j.Error = &execError{Kind: f.Kind, Message: f.Message, Line: f.Line}
	}
	// The calls' arguments share the visible budget too (a program that
	// passed a 100 MB argument printed it whole): each gets its part of
	// it, at least a KiB, cut on a character boundary.
	each := max(limit/max(len(o.Calls), 1), 1<<10)
	for _, c := range o.Calls {
		j.Calls = append(j.Calls, execCall{ID: c.ID, Name: c.Name, Arguments: clipper.String(c.Arguments, each), IsError: c.IsError})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
}
