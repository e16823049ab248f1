package llm

// Add adds o's counts to u, for totals over several responses (a turn's
// attempts, a compaction's side requests).
func (u *Usage) Add(o Usage) {
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CacheHitTokens += o.CacheHitTokens
	u.ReasoningTokens += o.ReasoningTokens
	u.CostUSD += o.CostUSD
}
