package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/presets"
)

func newPresetsCmd() *cobra.Command {
	var home, output string
	cmd := &cobra.Command{
		Use:   "presets",
		Short: "List the agent presets (embedded and from $PTC_HOME/presets)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			set, err := loadPresets(home)
			if err != nil {
				return err
			}
			switch output {
			case "json":
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(set.List())
			case "", "text":
				return printPresets(c, set)
			}
			return fmt.Errorf("unknown output format %q: use text or json", output)
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	cmd.Flags().StringVar(&output, "output", "text", "output format: text or json")
	return cmd
}

func printPresets(c *cobra.Command, set *presets.Set) error {
	w := tabwriter.NewWriter(c.OutOrStdout(), 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tPRESENTATION\tTOOLS\tDESCRIPTION")
	for _, p := range set.List() {
		id := p.ID
		if id == presets.DefaultID {
			id += " (default)"
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\n", id, p.Presentation, len(p.Tools), p.Description)
	}
	return w.Flush()
}
