package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/live"
)

// newAttachCmd is `ptc attach ID`: follow a running session from the
// start of its current turn until its owner closes it.
func newAttachCmd() *cobra.Command {
	var home, output, serveURL string
	var fo fleetOptions
	cmd := &cobra.Command{
		Use:   "attach ID [--output text|json|stream-json] [--serve URL]",
		Short: "Print a running session's events as they happen, until it ends",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if fo.url != "" {
				return followFleet(c, fo, args[0], output, true)
			}
			if serveURL != "" {
				return followServed(c, home, serveURL, args[0], output)
			}
			return followSession(c, home, args[0], output, live.UntilSession)
		},
	}
	fo.register(cmd, false)
	cmd.Flags().StringVar(&serveURL, "serve", "", "a session of the ptc serve server at this URL: follow it, type prompts, answer its approvals")
	cmd.Flags().StringVar(&home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	cmd.Flags().StringVar(&output, "output", "text", "output format: text, json or stream-json")
	return cmd
}

// newSessionRmCmd is `ptc session rm ID`.
func newSessionRmCmd(home *string) *cobra.Command {
	return &cobra.Command{
		Use:   "rm ID",
		Short: "Delete a session that is not running (its events, its spilled results and its checkpoints)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			h, err := openHome(*home)
			if err != nil {
				return err
			}
			cat := h.Catalog()
			id, err := cat.Resolve(args[0])
			if errors.Is(err, session.ErrNotFound) {
				return unknownSession(args[0], cat.Dir())
			}
			if err != nil {
				return err
			}
			if err := cat.Remove(id); err != nil {
				return err
			}
			if err := removeAll(h.SpillDir(id)); err != nil {
				return err
			}
			if err := removeAll(h.CheckpointDir(id)); err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "removed session %s\n", id)
			return nil
		},
	}
}

// followSession prints session id's events as they happen, in one of the
// `ptc run` formats, until the running turn ends (show --follow) or the
// session does (attach). A session nobody runs is printed as stored.
func followSession(c *cobra.Command, homeFlag, id, output string, until string) error {
	if err := checkOutput(output); err != nil {
		return err
	}
	home, err := openHome(homeFlag)
	if err != nil {
		return err
	}
	cat := home.Catalog()
	full, err := cat.Resolve(id)
	if errors.Is(err, session.ErrNotFound) {
		return unknownSession(id, cat.Dir())
	}
	if err != nil {
		return err
	}
	ctx, stop := interruptContext(c.Context())
	defer stop()
	pr := newPrinter(output, c.OutOrStdout(), c.ErrOrStderr())
	pr.sessionID = full
	var seen []session.Event
	from := int64(0)
	if until == live.UntilSession {
		from = live.FromCurrentTurn
	}
	for {
		end, err := live.Follow(ctx, cat.SessionDir(full), from, until, func(st live.Stream) {
			if output == "text" && from <= 0 {
				fmt.Fprintf(c.ErrOrStderr(), "following session %s (pid %d); Ctrl-C stops following, not the session\n", full, st.PID)
			}
		}, func(e session.Event) error {
			seen = append(seen, e)
			from = e.Seq + 1
			pr.event(e)
			return nil
		})
		if errors.Is(err, live.ErrNotServed) && len(seen) == 0 {
			return printStored(c, cat, full, output, pr)
		}
		if ctx.Err() != nil {
			pr.endReasoning()
			pr.breakLine()
			return nil
		}
		if err != nil {
			return err
		}
		if end == live.EndLagged {
			continue // too slow for a moment: pick up from the last event
		}
		return finishFollow(c, pr, seen, end)
	}
}

// printStored prints a session nobody is running, as `show` would, and
// says there is nothing to follow.
func printStored(c *cobra.Command, cat *session.Catalog, id, output string, pr *printer) error {
	ld, err := cat.Load(c.Context(), id)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.ErrOrStderr(), "ptc: session %s is not running; here is what it holds\n", id)
	switch output {
	case "json":
		return writeShowJSON(c, ld.Header, ld.Events)
	case "stream-json":
		for _, e := range ld.Events {
			pr.event(e)
		}
		return nil
	}
	return showText(c.OutOrStdout(), ld.Header, ld.Events)
}

func writeShowJSON(c *cobra.Command, h session.Header, events []session.Event) error {
	enc := json.NewEncoder(c.OutOrStdout())
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Session session.Header  `json:"session"`
		Events  []session.Event `json:"events"`
	}{h, nonNil(events)})
}

// finishFollow ends the output as `ptc run` would: the final object for
// json, a line saying how it ended for text.
func finishFollow(c *cobra.Command, pr *printer, seen []session.Event, end string) error {
	res := agent.OutcomeOf(seen)
	if pr.format == "json" {
		return json.NewEncoder(pr.out).Encode(finalObject(pr.sessionID, res))
	}
	if pr.format != "text" {
		return nil
	}
	pr.endReasoning()
	pr.breakLine()
	switch {
	case end == live.EndClosed:
		fmt.Fprintf(pr.err, "(session %s closed)\n", pr.sessionID)
	case res.Reason != "":
		fmt.Fprintf(pr.err, "(turn %d ended: %s)\n", res.Turn, termsafe.String(res.Reason))
	}
	return nil
}

// removeAll is os.RemoveAll that says what it could not remove.
func removeAll(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("the session is removed but its spilled results in %s are not: %w", dir, err)
	}
	return nil
}
