package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/cmd/ptc/tui"
	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/compact"
	"github.com/ptc-dev/ptc/runtime/session"
)

// contextView is what the text printer shows of a long session: the
// meter when the context is at least half full, pruning and compaction as
// they happen, and the last reading at the end of a turn.
type contextView struct {
	last   *session.ContextMeter
	pruned int // results pruned since the last reading shown
}

// meterShownFrom is the share of the window from which every reading is
// shown, not only the last one.
const meterShownFrom = 0.5

// contextText renders the long-session events; false means ev is not one.
func (p *printer) contextText(ev session.Event) bool {
	v := &p.context
	switch ev.Type {
	case session.TypeContextMeter:
		var d session.ContextMeter
		if json.Unmarshal(ev.Data, &d) != nil {
			return true
		}
		v.last = &d
		if v.pruned > 0 {
			p.line(fmt.Sprintf("· pruned %d old tool result(s) to make room", v.pruned))
			v.pruned = 0
		}
		if d.Window > 0 && float64(d.Tokens) >= meterShownFrom*float64(d.Window) {
			p.line("· " + meterText(d))
		}
	case session.TypeToolPruned:
		v.pruned++
	case session.TypeCompactionStart:
		var d session.CompactionStart
		if json.Unmarshal(ev.Data, &d) == nil {
			p.line(fmt.Sprintf("· compacting the context (%s, about %s tokens)…", d.Trigger, kilo(d.Tokens)))
		}
	case session.TypeCompactionSummary:
		var d session.CompactionSummary
		if json.Unmarshal(ev.Data, &d) == nil && d.Rejected != "" {
			p.line("  ✗ summary not used: " + clip(d.Rejected, 120))
		}
	case session.TypeCompactionEnd:
		var d session.CompactionEnd
		if json.Unmarshal(ev.Data, &d) == nil {
			p.line("· " + compactionText(d.TokensBefore, d.TokensAfter, d.Passes, d.Error, d.Skipped))
		}
	default:
		return false
	}
	return true
}

// meterText is one reading: "context 21.3k of 32.8k tokens (65%)".
func meterText(d session.ContextMeter) string {
	if d.Window <= 0 {
		return fmt.Sprintf("context %s tokens", kilo(d.Tokens))
	}
	return fmt.Sprintf("context %s of %s tokens (%d%%)", kilo(d.Tokens), kilo(d.Window), d.Tokens*100/d.Window)
}

func compactionText(before, after, passes int, failure, skipped string) string {
	switch {
	case failure != "":
		return "compaction failed: " + clip(failure, 160)
	case skipped != "":
		return clip(skipped, 160)
	}
	return fmt.Sprintf("compacted: about %s → %s tokens (%d pass(es))", kilo(before), kilo(after), passes)
}

// kilo writes a token count the way the status line shows it.
func kilo(n int) string { return tui.Tokens(n) }

// compactOutcome prints how a manual compaction went and turns a failure
// into the command's error.
func compactOutcome(w io.Writer, format string, res compact.Result) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		if err := enc.Encode(struct {
			ID           string `json:"compactionId"`
			Passes       int    `json:"passes"`
			TokensBefore int    `json:"tokensBefore"`
			TokensAfter  int    `json:"tokensAfter"`
			Failure      string `json:"failure,omitempty"`
			Skipped      string `json:"skipped,omitempty"`
		}{res.ID, res.Passes, res.TokensBefore, res.TokensAfter, res.Failure, res.Skipped}); err != nil {
			return err
		}
	} else if res.Failure == "" {
		fmt.Fprintln(w, compactionText(res.TokensBefore, res.TokensAfter, res.Passes, "", res.Skipped))
	}
	if res.Failure != "" {
		return fmt.Errorf("compaction failed: %s", termsafe.String(res.Failure))
	}
	return nil
}

// newSessionCompactCmd is `ptc session compact ID`: summarise a stored
// session now, with the model it was recorded with (its API key from the
// environment), so that the next `ptc run --resume` starts small.
func newSessionCompactCmd(home *string) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "compact ID [--output text|json]",
		Short: "Summarise a session's earlier part now (works even when its context is already too long)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if output != "text" && output != "json" {
				return fmt.Errorf("unknown output format %q: use text or json", output)
			}
			f := &runFlags{home: *home, resume: args[0], output: "text"}
			a, err := openApp(c.Context(), f, nil)
			if err != nil {
				return err
			}
			defer a.Close()
			ctx, stop := interruptContext(c.Context())
			defer stop()
			res, err := a.sess.Compact(ctx)
			if err != nil {
				return err
			}
			return compactOutcome(c.OutOrStdout(), output, res)
		},
	}
	cmd.Flags().StringVar(&output, "output", "text", "output format: text or json")
	return cmd
}

// compactCommand handles /compact in the interactive session (the
// printer shows how it went from its events); false means text is not
// that command.
func compactCommand(c *cobra.Command, sess *harness.Session, text string) (bool, error) {
	if text != "/compact" {
		return false, nil
	}
	_, err := sess.Compact(c.Context())
	return true, err
}
