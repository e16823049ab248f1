package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/bench"
)

// newBenchCmd is `ptc bench`: the DESIGN §12 figures, each against its
// baseline, measured in one run (see package bench).
func newBenchCmd() *cobra.Command {
	var output string
	var quick bool
	var fixture string
	cmd := &cobra.Command{
		Use:   "bench [--output text|json] [--quick]",
		Short: "Measure token saving, sandbox latency, run_code start and speed (against node) and the event log against their baselines",
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
			rep, err := bench.Run(c.Context(), bench.Options{Quick: quick, Scratch: scratch})
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
	cmd.Flags().BoolVar(&quick, "quick", false, "fewer samples, a 100 k-event session and the run_code workloads at 1/20 of their size (about 20 s)")
	cmd.Flags().StringVar(&fixture, "fixture", "", "only write the generated workspace into this directory (to replay examples/bench scripts by hand)")
	return cmd
}
