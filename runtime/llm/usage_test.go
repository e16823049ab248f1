package llm

import "testing"

func TestUsageAddSumsEveryCounterAndTheCost(t *testing.T) {
	u := Usage{InputTokens: 10, OutputTokens: 2, CacheHitTokens: 4, ReasoningTokens: 1, CostUSD: 0.5}
	u.Add(Usage{InputTokens: 5, OutputTokens: 3, CacheHitTokens: 1, ReasoningTokens: 2, CostUSD: 0.25})
	if u != (Usage{InputTokens: 15, OutputTokens: 5, CacheHitTokens: 5, ReasoningTokens: 3, CostUSD: 0.75}) {
		t.Fatalf("%+v", u)
	}
}
