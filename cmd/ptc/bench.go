package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/bench"
	"github.com/ptc-dev/ptc/runtime/session"
)

// newBenchCmd is `ptc bench`: the DESIGN §12 figures, each against its
// baseline, measured in one run (see package bench).
func newBenchCmd() *cobra.Command {
	var output string
	var quick bool
	var fixture string
	cmd := &cobra.Command{
		Use:   "bench [--output text|json] [--quick]",
		Short: "Measure token saving, sandbox latency, run_code start and the event log against their baselines",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if output != "text" && output != "json" {
				return fmt.Errorf("unknown output format %q: use text or json", output)
			}
			if fixture != "" {
				return bench.NewFixture().Write(fixture)
			}
			scratch, err := os.MkdirTemp("", "ptc-bench-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(scratch)
			rep, err := bench.Run(c.Context(), bench.Options{Quick: quick, Scratch: scratch, Session: benchSession(filepath.Join(scratch, "home"))})
			if err != nil {
				return err
			}
			if output == "json" {
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			return rep.WriteText(c.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&output, "output", "text", "output format: text or json")
	cmd.Flags().BoolVar(&quick, "quick", false, "fewer samples and a 100 k-event session (about 15 s)")
	cmd.Flags().StringVar(&fixture, "fixture", "", "only write the generated workspace into this directory (to replay examples/bench scripts by hand)")
	return cmd
}

// benchSession runs one scripted turn exactly as `ptc run` wires it, with
// a private home so the user's sessions are left alone.
func benchSession(home string) bench.SessionFunc {
	return func(ctx context.Context, s bench.SessionSpec) ([]session.Event, string, error) {
		f := &runFlags{preset: s.Preset, model: "script:" + s.Script, workspace: s.Workspace, home: home, approval: "never", output: "json"}
		a, err := openApp(ctx, f, func(session.Event) {})
		if err != nil {
			return nil, "", err
		}
		defer a.Close()
		res, err := a.agent.RunTurn(ctx, s.Prompt)
		if err != nil {
			return nil, "", err
		}
		if err := turnError(res); err != nil {
			return nil, "", err
		}
		return a.log.Events(), res.Text, nil
	}
}
