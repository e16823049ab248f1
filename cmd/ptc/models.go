package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/llm/models"
)

// newModelsCmd is `ptc models`: the model table as this home sees it
// (built in, with $PTC_HOME/models.yaml applied).
func newModelsCmd() *cobra.Command {
	var home, output string
	cmd := &cobra.Command{
		Use:   "models",
		Short: "List the models ptc knows: context window, largest answer, prices (with $PTC_HOME/models.yaml applied)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if output != "text" && output != "json" {
				return fmt.Errorf("unknown output format %q: use text or json", output)
			}
			h, err := harness.OpenHome(home)
			if err != nil {
				return err
			}
			defer h.Close()
			table, err := h.Models()
			if err != nil {
				return err
			}
			if output == "json" {
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(table.List())
			}
			return printModels(c, table.List())
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	cmd.Flags().StringVar(&output, "output", "text", "output format: text or json")
	return cmd
}

func printModels(c *cobra.Command, list []models.Model) error {
	w := tabwriter.NewWriter(c.OutOrStdout(), 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tPROVIDER\tWINDOW\tMAX OUT\tTHINKS\t$/1M IN\tCACHE HIT\tOUT")
	for _, m := range list {
		in, hit, out := "-", "-", "-"
		if p := m.Price; p != nil {
			in, hit, out = price(p.Input), price(p.CacheHit), price(p.Output)
		}
		maxOut := "-"
		if m.MaxOutput > 0 {
			maxOut = strconv.Itoa(m.MaxOutput)
		}
		thinks := "no"
		if m.Thinks {
			thinks = "yes"
		}
		id := m.ID
		if m.Retired != "" {
			id += " (retired " + m.Retired + ")"
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", termsafe.Line(id), termsafe.Line(m.Provider), m.ContextWindow, maxOut, thinks, in, hit, out)
	}
	return w.Flush()
}

func price(usd float64) string { return strconv.FormatFloat(usd, 'f', -1, 64) }
