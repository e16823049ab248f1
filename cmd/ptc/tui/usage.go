package tui

import (
	"fmt"

	"github.com/ptc-dev/ptc/internal/termsafe"

	"github.com/ptc-dev/ptc/runtime/llm/models"
	"github.com/ptc-dev/ptc/runtime/session"
)

// usageTotals is the session's usage (session.UsageTotal: answers and
// compaction summaries), priced for the status line and /cost.
type usageTotals struct{ session.UsageTotal }

// cost is the session's cost in US dollars and whether it is known: the
// providers' own figures plus the unpriced answers at the model's prices.
func (u usageTotals) cost(m models.Model) (float64, bool) {
	usd := u.All.CostUSD
	if !m.Priced() {
		// Only what providers priced themselves is known.
		return usd, usd > 0
	}
	return usd + m.Cost(u.Unpriced), true
}

// cacheShare is the part of the input served from the provider's cache,
// in percent.
func (u usageTotals) cacheShare() int {
	if u.All.InputTokens <= 0 {
		return 0
	}
	return u.All.CacheHitTokens * 100 / u.All.InputTokens
}

// kilo is Tokens, short for the views.
func kilo(n int) string { return Tokens(n) }

// Tokens writes a token count as the status line shows it: 950, 12.3k,
// 1.05M. The text output of ptc run writes counts the same way.
func Tokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprintf("%.2fM", float64(n)/1_000_000)
}

func dollars(usd float64) string {
	if usd < 0.01 {
		return fmt.Sprintf("$%.4f", usd)
	}
	return fmt.Sprintf("$%.2f", usd)
}

// contextUse is the last meter reading against the window: "21.3k/1.05M
// (2%)", or the window alone before the first request.
func contextUse(meter *session.ContextMeter, m models.Model) string {
	window := m.ContextWindow
	if meter != nil && meter.Window > 0 {
		window = meter.Window
	}
	if meter == nil {
		if window <= 0 {
			return "ctx –"
		}
		return "ctx 0/" + kilo(window)
	}
	if window <= 0 {
		return "ctx " + kilo(meter.Tokens)
	}
	return fmt.Sprintf("ctx %s/%s (%d%%)", kilo(meter.Tokens), kilo(window), meter.Tokens*100/window)
}

// costReport is /cost: the session's usage in full.
func costReport(u usageTotals, m models.Model) string {
	usd, known := u.cost(m)
	price := "unknown (the model table has no price for " + termsafe.Line(m.ID) + "; add one in $PTC_HOME/models.yaml)"
	if known {
		price = dollars(usd)
	}
	return fmt.Sprintf("%d answers · input %d tokens (%d from the cache, %d%%) · output %d tokens (%d reasoning) · cost %s",
		u.Requests, u.All.InputTokens, u.All.CacheHitTokens, u.cacheShare(), u.All.OutputTokens, u.All.ReasoningTokens, price)
}
