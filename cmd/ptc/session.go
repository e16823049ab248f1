package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/live"
	"github.com/ptc-dev/ptc/sandbox/jobs"
)

// newSessionCmd is `ptc session show|export ID`.
func newSessionCmd() *cobra.Command {
	var home string
	cmd := &cobra.Command{
		Use:   "session",
		Short: "Show or export one stored session",
	}
	cmd.PersistentFlags().StringVar(&home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	var fo fleetOptions
	fo.register(cmd, true)

	var output string
	var follow, rows bool
	show := &cobra.Command{
		Use:   "show ID [--output text|json] [--events] [--follow]",
		Short: "Print a session's transcript (--events: its event rows; --follow: its events as they happen, until the turn ends)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if follow && fo.url != "" {
				return followFleet(c, fo, args[0], output, false)
			}
			if follow {
				return followSession(c, home, args[0], output, live.UntilTurn)
			}
			if fo.url != "" {
				return showFleet(c, fo, args[0], output)
			}
			h, events, err := loadSession(c.Context(), home, args[0])
			if err != nil {
				return err
			}
			kids := childrenOf(c.Context(), home, h.ID)
			list, err := jobs.FromEvents(events)
			if err != nil {
				return err
			}
			switch output {
			case "json":
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(struct {
					Session  session.Header    `json:"session"`
					Events   []session.Event   `json:"events"`
					Children []session.Summary `json:"children"`
					Jobs     []jobs.Info       `json:"jobs"`
				}{h, nonNil(events), kids, append([]jobs.Info{}, list...)})
			case "text", "":
				show := showTranscript
				if rows {
					show = showText
				}
				if err := show(c.OutOrStdout(), h, events); err != nil {
					return err
				}
				if err := showChildren(c.OutOrStdout(), kids); err != nil {
					return err
				}
				return showJobs(c.OutOrStdout(), list)
			}
			return fmt.Errorf("unknown output format %q: use text or json", output)
		},
	}
	show.Flags().StringVar(&output, "output", "text", "output format: text or json (with --follow also stream-json)")
	show.Flags().BoolVar(&follow, "follow", false, "keep printing the events of a running session until its turn ends")
	show.Flags().BoolVar(&rows, "events", false, "print the raw event rows instead of the transcript")

	export := &cobra.Command{
		Use:   "export ID",
		Short: "Print a session's events as JSON lines",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			var events []session.Event
			var err error
			if fo.url != "" {
				var ld session.Loaded
				ld, err = loadFleet(c.Context(), fo, args[0])
				events = ld.Events
			} else {
				_, events, err = loadSession(c.Context(), home, args[0])
			}
			if err != nil {
				return err
			}
			enc := json.NewEncoder(c.OutOrStdout())
			for _, e := range events {
				if err := enc.Encode(e); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.AddCommand(show, export, newSessionRmCmd(&home), newSessionCompactCmd(&home), newSessionDiffCmd(&home))
	return cmd
}

// loadSession reads one session (id or a unique prefix) of home without
// taking it over.
func loadSession(ctx context.Context, homeFlag, id string) (session.Header, []session.Event, error) {
	home, err := openHome(homeFlag)
	if err != nil {
		return session.Header{}, nil, err
	}
	cat := home.Catalog()
	full, err := cat.Resolve(id)
	if errors.Is(err, session.ErrNotFound) {
		return session.Header{}, nil, unknownSession(id, cat.Dir())
	}
	if err != nil {
		return session.Header{}, nil, err
	}
	h, events, warnings, err := live.Read(ctx, cat, full)
	if errors.Is(err, session.ErrNotFound) {
		// A directory whose creation was killed before its header: not
		// listed either (Catalog.List).
		return session.Header{}, nil, unknownSession(id, cat.Dir())
	}
	if err != nil {
		return session.Header{}, nil, err
	}
	for _, w := range warnings {
		fmt.Fprintln(os.Stderr, "ptc: warning:", w)
	}
	return h, events, nil
}

func nonNil(events []session.Event) []session.Event {
	if events == nil {
		return []session.Event{}
	}
	return events
}

func showText(w io.Writer, h session.Header, events []session.Event) error {
	created := time.UnixMilli(h.CreatedAt).Local().Format(time.DateTime)
	fmt.Fprintf(w, "session %s\ncreated %s  workspace %s  model %s  preset %s\n\n", h.ID, created, termsafe.String(h.Workspace), termsafe.String(h.Model), h.Preset)
	for _, e := range events {
		if e.Type == session.TypeAssistantChunk {
			continue
		}
		fmt.Fprintf(w, "%5d  %-20s %s\n", e.Seq, e.Type, clip(string(e.Data), 110))
	}
	if line := usageLine(events); line != "" {
		fmt.Fprintf(w, "\n%s\n", line)
	}
	return nil
}
