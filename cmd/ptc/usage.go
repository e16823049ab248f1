package main

import (
	"encoding/json"
	"fmt"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
)

// sessionUsage sums the usage of every answer in a session's events, and
// reports whether there was any answer at all.
func sessionUsage(events []session.Event) (llm.Usage, bool) {
	var total llm.Usage
	seen := false
	for _, e := range events {
		if e.Type != session.TypeAssistantMessage {
			continue
		}
		var m struct {
			Usage llm.Usage `json:"usage"`
		}
		if json.Unmarshal(e.Data, &m) == nil {
			total.Add(m.Usage)
			seen = true
		}
	}
	return total, seen
}

// usageLine is the one-line total `ptc session show` ends with: tokens in
// (of them cache hits) and out, and the cost when the model is priced.
func usageLine(events []session.Event) string {
	u, ok := sessionUsage(events)
	if !ok {
		return ""
	}
	line := fmt.Sprintf("usage: %d input (%d cache hit), %d output", u.InputTokens, u.CacheHitTokens, u.OutputTokens)
	if u.CostUSD > 0 {
		line += fmt.Sprintf(", $%.6f", u.CostUSD)
	}
	return line
}
