package session

import "github.com/ptc-dev/ptc/runtime/llm"

// Event types of long sessions: the context meter, pruned tool results and
// compaction (see runtime/compact). Names are part of the public format.
var (
	// TypeContextMeter records the expected size of the request about to
	// be sent, logged with every request.
	TypeContextMeter = eventType("context/meter")
	// TypeToolPruned replaces the content of one tool/result on the
	// surface by a shorter text; the original event stays in the log.
	TypeToolPruned        = eventType("tool/pruned")
	TypeCompactionStart   = eventType("compaction/start")
	TypeCompactionSummary = eventType("compaction/summary")
	TypeCompactionEnd     = eventType("compaction/end")
)

// Compaction triggers.
const (
	TriggerAuto     = "auto"     // the request would pass the threshold
	TriggerOverflow = "overflow" // the provider refused the request as too long
	TriggerManual   = "manual"   // ptc session compact, /compact
)

// SurfaceSpan names a run of consecutive surface items by the seqs of its
// first and last item. An item's seq is that of the event that put it on
// the surface: the original user/message, assistant/message or tool/result,
// or the user/message of an earlier summary (a summary item keeps its own
// seq, so a later span may start or end on it).
type SurfaceSpan struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// ContextMeter is the meter's reading for the request about to be sent.
// Tokens is the expected input size; Basis says how it was obtained:
// "reported" (the provider's count for the previous request plus a local
// estimate of what changed since, Reported being that count), "estimate"
// (no earlier count: a local estimate of the whole request) or "refused"
// (the estimate scaled by the provider's count of a request it just
// refused as too long). Window and Threshold are 0 when the window is unknown.
type ContextMeter struct {
	Turn      int    `json:"turn"`
	Step      int    `json:"step"`
	Tokens    int    `json:"tokens"`
	Window    int    `json:"window,omitempty"`
	Threshold int    `json:"threshold,omitempty"`
	Basis     string `json:"basis"`
	Reported  int    `json:"reported,omitempty"`
}

// ToolPruned replaces the content of the tool/result at seq Replaces on
// the surface; position, call id and name stay. OriginalChars is the size
// of the replaced content in characters (code points).
type ToolPruned struct {
	Replaces      int64   `json:"replaces"`
	CallID        string  `json:"callId"`
	Name          string  `json:"name"`
	Content       []Block `json:"content"`
	OriginalChars int     `json:"originalChars"`
}

// CompactionStart opens a compaction. Turn and Step are those of the
// request it makes room for (0 for a manual compaction between turns);
// Tokens is the meter reading before it.
type CompactionStart struct {
	ID      string `json:"compactionId"`
	Trigger string `json:"trigger"`
	Turn    int    `json:"turn,omitempty"`
	Step    int    `json:"step,omitempty"`
	Tokens  int    `json:"tokens"`
	Window  int    `json:"window,omitempty"`
}

// CompactionSummary records one summary side request and its answer. The
// request is rebuilt from the log alone: the request built from the
// events before seq ReplayedFrom (the last request sent, when the side
// request replays it, so the provider's prefix cache serves it), its
// first ReplayedMessages messages, and Instruction as one more user
// message, with Options (see compact.RebuildRequest). Replaces is the span
// the summary stands for; ReplacedTokens and SummaryTokens are local
// estimates of both sides. Rejected says why the summary was not used;
// when empty, the next event is the user/message carrying it.
type CompactionSummary struct {
	ID               string      `json:"compactionId"`
	Pass             int         `json:"pass"`
	Attempt          int         `json:"attempt"`
	Replaces         SurfaceSpan `json:"replaces"`
	ReplacedMessages int         `json:"replacedMessages"`
	ReplayedFrom     int64       `json:"replayedFrom"`
	ReplayedMessages int         `json:"replayedMessages"`
	ReplacedTokens   int         `json:"replacedTokens"`
	SummaryTokens    int         `json:"summaryTokens"`
	Provider         string      `json:"provider"`
	Model            string      `json:"model"`
	Options          llm.Options `json:"options"`
	Instruction      string      `json:"instruction"`
	Usage            llm.Usage   `json:"usage"`
	RawOutput        string      `json:"rawOutput"`
	Rejected         string      `json:"rejected,omitempty"`
}

// CompactionEnd closes a compaction. Error is set when it failed; the
// session stays usable (nothing was replaced by a failed pass). Skipped is
// set instead when there was nothing to compact, and says why.
type CompactionEnd struct {
	ID           string `json:"compactionId"`
	TokensBefore int    `json:"tokensBefore"`
	TokensAfter  int    `json:"tokensAfter"`
	Passes       int    `json:"passes"`
	Error        string `json:"error,omitempty"`
	Skipped      string `json:"skipped,omitempty"`
}
