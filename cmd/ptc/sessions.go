package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
)

// newSessionsCmd is `ptc sessions`: the stored sessions, newest first.
func newSessionsCmd() *cobra.Command {
	var home, output, search string
	var fo fleetOptions
	cmd := &cobra.Command{
		Use:   "sessions [--search TEXT] [--output json]",
		Short: "List stored sessions, most recently updated first",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if fo.url != "" {
				return listFleet(c, fo, output)
			}
			h, err := openHome(home)
			if err != nil {
				return err
			}
			if c.Flags().Changed("search") {
				return searchSessions(c, h.Catalog(), search, output)
			}
			list, err := h.Catalog().List(c.Context(), session.ListOptions{})
			if err != nil {
				return err
			}
			return printSummaries(c, output, list)
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	cmd.Flags().StringVar(&output, "output", "text", "output format: text or json")
	cmd.Flags().StringVar(&search, "search", "", "list the sessions whose title, prompts, answers or commands contain every word of TEXT, best first")
	fo.register(cmd, false)
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
	fmt.Fprintln(tw, "ID\tUPDATED\tSTATUS\tTURNS\tEVENTS\tMODEL\tWORKSPACE\tTITLE")
	for _, s := range list {
		updated := time.UnixMilli(s.UpdatedAt).Local().Format("2006-01-02 15:04")
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\n", s.Header.ID, updated, statusText(s), s.Turns, s.Events,
			termsafe.String(s.Settings.Model), termsafe.String(s.Settings.Workspace), termsafe.String(s.Title))
	}
	return tw.Flush()
}

// statusText is a listing's status column: "live (pid N)" while a
// process has the session open, with "running" when a turn is going on.
func statusText(s session.Summary) string {
	st := termsafe.String(s.Status)
	if !s.Owner.Live {
		return st
	}
	live := "live"
	if s.Owner.PID > 0 {
		live = fmt.Sprintf("live (pid %d)", s.Owner.PID)
	} else if s.Owner.By != "" {
		live = "live (" + termsafe.String(s.Owner.By) + ")"
	}
	if s.Status == session.StatusRunning {
		return live + ", running"
	}
	return live
}
