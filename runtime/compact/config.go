package compact

// Config says when and how a session's context is kept under its window.
// The zero value meters requests but never prunes or compacts; a Config
// is a value, fixed once built (see WithDefaults).
type Config struct {
	// Window is the model's context window in tokens; 0 means unknown:
	// readings are logged without a window and nothing is automatic.
	Window int
	// Auto prunes and compacts before a request that would pass the
	// threshold, and recovers from a context-overflow failure. Off with
	// --no-compact or the preset's compact: false.
	Auto bool
	// Threshold is the share of the window a request may fill before
	// pruning starts (default 0.8).
	Threshold float64
	// Retain is the share of the window kept verbatim at the end of the
	// session when it is compacted (default 0.16).
	Retain float64
	// PruneAbove is the size in characters above which an old tool result
	// may be pruned (default 8192); PruneHead and PruneTail are the
	// characters kept from its start and end (defaults 4096 and 1024).
	PruneAbove, PruneHead, PruneTail int
	// ProtectSteps is how many of the latest steps (an assistant message
	// and its tool results) are never pruned (default 2). Counting steps
	// rather than turns protects the latest results inside one long turn
	// too.
	ProtectSteps int
	// SummaryMaxTokens caps the summary's length (default: an eighth of
	// the window, between 1 024 and 8 192, and no more than MaxOutput).
	SummaryMaxTokens int
	// MaxOutput is the model's largest answer in tokens (0: unknown).
	MaxOutput int
	// MaxPasses bounds the side requests of one compaction when the span
	// to summarise does not fit one request (default 8).
	MaxPasses int
}

// WithDefaults fills every zero field with its default.
func (c Config) WithDefaults() Config {
	if c.Threshold <= 0 || c.Threshold > 1 {
		c.Threshold = 0.8
	}
	if c.Retain <= 0 || c.Retain >= c.Threshold {
		c.Retain = min(0.16, c.Threshold/2)
	}
	if c.PruneAbove <= 0 {
		c.PruneAbove = 8192
	}
	if c.PruneHead <= 0 {
		c.PruneHead = 4096
	}
	if c.PruneTail <= 0 {
		c.PruneTail = 1024
	}
	if c.PruneHead+c.PruneTail >= c.PruneAbove {
		c.PruneHead, c.PruneTail = c.PruneAbove/2, c.PruneAbove/8
	}
	if c.ProtectSteps <= 0 {
		c.ProtectSteps = 2
	}
	if c.SummaryMaxTokens <= 0 {
		c.SummaryMaxTokens = min(max(c.Window/8, 1024), 8192)
	}
	if c.MaxOutput > 0 {
		c.SummaryMaxTokens = min(c.SummaryMaxTokens, c.MaxOutput)
	}
	if c.MaxPasses <= 0 {
		c.MaxPasses = 8
	}
	return c
}

// ThresholdTokens is the reading above which pruning starts (0: none).
func (c Config) ThresholdTokens() int { return int(float64(c.Window) * c.Threshold) }

// RetainTokens is the budget of the verbatim tail.
func (c Config) RetainTokens() int { return int(float64(c.Window) * c.Retain) }

// automatic reports whether pruning and compaction may run on their own.
func (c Config) automatic() bool { return c.Auto && c.Window > 0 }
