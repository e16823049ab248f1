package main

import (
	"fmt"

	"github.com/ptc-dev/ptc/runtime/session"
)

// usageLine is the one-line total `ptc session show` ends with: tokens in
// (of them cache hits) and out, and the cost when the model is priced;
// compaction summaries count, as the TUI's status line counts them.
func usageLine(events []session.Event) string {
	total := session.SumUsage(events)
	if total.Requests == 0 {
		return ""
	}
	u := total.All
	line := fmt.Sprintf("usage: %d input (%d cache hit), %d output", u.InputTokens, u.CacheHitTokens, u.OutputTokens)
	if u.CostUSD > 0 {
		line += fmt.Sprintf(", $%.6f", u.CostUSD)
	}
	return line
}
