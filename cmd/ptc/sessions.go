package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/runtime/session"
)

// newSessionsCmd is `ptc sessions`: the stored sessions, newest first.
func newSessionsCmd() *cobra.Command {
	var home, output string
	cmd := &cobra.Command{
		Use:   "sessions [--output json]",
		Short: "List stored sessions, most recently updated first",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			store, err := openStore(home, true)
			if errors.Is(err, session.ErrNotFound) {
				return printSummaries(c, output, nil)
			}
			if err != nil {
				return err
			}
			defer store.Close()
			list, err := store.List(c.Context(), session.ListOptions{})
			if err != nil {
				return err
			}
			return printSummaries(c, output, list)
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	cmd.Flags().StringVar(&output, "output", "text", "output format: text or json")
	return cmd
}

func printSummaries(c *cobra.Command, output string, list []session.Summary) error {
	out := c.OutOrStdout()
	switch output {
	case "json":
		if list == nil {
			list = []session.Summary{}
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	case "text", "":
	default:
		return fmt.Errorf("unknown output format %q: use text or json", output)
	}
	if len(list) == 0 {
		fmt.Fprintln(out, "no sessions yet; start one with `ptc` or `ptc run`")
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tEVENTS\tMODEL\tWORKSPACE")
	for _, s := range list {
		updated := time.UnixMilli(s.UpdatedAt).Local().Format("2006-01-02 15:04")
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", s.Header.ID, updated, s.Events, s.Header.Model, s.Header.Workspace)
	}
	return tw.Flush()
}
