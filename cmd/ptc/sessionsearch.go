package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
)

// searchSessions is `ptc sessions --search TEXT`: every workspace's
// sessions matching TEXT (session.Catalog.Search), best first, each with
// the snippet of its best match.
func searchSessions(c *cobra.Command, cat *session.Catalog, text, output string) error {
	if output != "text" && output != "json" && output != "" {
		return fmt.Errorf("unknown output format %q: use text or json", output)
	}
	if strings.TrimSpace(text) == "" {
		return errors.New("--search needs some text to look for")
	}
	hits, err := cat.Search(c.Context(), text, session.SearchOptions{Limit: session.SearchMaxLimit})
	if err != nil {
		return err
	}
	out := c.OutOrStdout()
	if output == "json" {
		if hits == nil {
			hits = []session.Hit{}
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(hits)
	}
	if len(hits) == 0 {
		fmt.Fprintf(out, "no session matches %s\n", termsafe.Line(text))
		return nil
	}
	for _, h := range hits {
		s := h.Summary
		updated := time.UnixMilli(s.UpdatedAt).Local().Format("2006-01-02 15:04")
		fmt.Fprintf(out, "%s  %s  %s  (%s)\n", s.Header.ID, updated, termsafe.Line(s.Title), termsafe.Line(s.Settings.Workspace))
		fmt.Fprintf(out, "    %s #%d: %s\n", h.Kind, h.Seq, termsafe.Clip(h.Snippet, 160))
	}
	return nil
}
