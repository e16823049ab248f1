package compact

import (
	"encoding/json"
	"sync"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/session"
)

// Basis values of a reading (session.ContextMeter.Basis).
const (
	BasisReported = "reported"
	BasisEstimate = "estimate"
	// BasisRefused: the estimate scaled by how far the provider's count of
	// a refused request was above it, until the next reported count.
	BasisRefused = "refused"
)

// Reading is the meter's expectation for one request.
type Reading struct {
	Tokens   int
	Basis    string
	Reported int // the provider's count the reading builds on (BasisReported)
}

// Meter predicts the input tokens of the next request. Its baseline is the
// last request the provider reported a count for: the reading of a new
// request is that count plus the local estimate of the difference between
// the two requests (negative after pruning or compaction). Whatever the
// two share — usually almost everything — is counted by the provider's own
// tokenizer, so the estimate's error (see Tokens) applies to the change
// only. Without a baseline the reading is the local estimate of the whole
// request. Safe for concurrent use.
type Meter struct {
	mu        sync.Mutex
	ok        bool
	reported  int
	estimated int
	// refusedTokens/refusedEst > 0 after a refusal, until the next
	// Observe: the provider's count of the refused request and the
	// estimate of it.
	refusedTokens, refusedEst int
}

// Read is the reading for req.
func (m *Meter) Read(req llm.Request) Reading {
	est := RequestTokens(req)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.refusedEst > 0 {
		return Reading{Tokens: (est*m.refusedTokens + m.refusedEst - 1) / m.refusedEst, Basis: BasisRefused}
	}
	if !m.ok {
		return Reading{Tokens: est, Basis: BasisEstimate}
	}
	return Reading{Tokens: max(m.reported+est-m.estimated, 0), Basis: BasisReported, Reported: m.reported}
}

// Observe makes req, which the provider counted as usage.InputTokens,
// the baseline. A response without a count leaves the baseline alone.
func (m *Meter) Observe(req llm.Request, usage llm.Usage) {
	if usage.InputTokens <= 0 {
		return
	}
	est := RequestTokens(req)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ok, m.reported, m.estimated, m.refusedEst = true, usage.InputTokens, est, 0
}

// Overflowed records that the provider refused req as tokens long (the
// caller passes at least the window plus one), unless the meter already
// reads it longer. Until the next reported count, readings are the local
// estimate scaled by the same factor: an estimate the provider just proved
// short is short in proportion (a denser text than the rule of thumb
// assumes), so the parts of req a compaction keeps are scaled, not offset.
func (m *Meter) Overflowed(req llm.Request, tokens int) {
	if m.Read(req).Tokens >= tokens {
		return
	}
	est := max(RequestTokens(req), 1)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.refusedTokens, m.refusedEst = tokens, est
}

// Restore sets the baseline from a stored session: the latest model
// answer or summary that carries a reported input count, with the request
// it answered rebuilt from the log. Used when a session is resumed, so the
// first reading of a new process is as good as the last of the old one.
func (m *Meter) Restore(events []session.Event) error {
	for i := len(events) - 1; i >= 0; i-- {
		var req llm.Request
		var usage llm.Usage
		var err error
		switch events[i].Type {
		case session.TypeAssistantMessage:
			var d session.AssistantMessage
			if json.Unmarshal(events[i].Data, &d) != nil || d.Usage.InputTokens <= 0 {
				continue
			}
			// Only chunks come between a request's build and its answer,
			// so the prefix before the answer rebuilds the request.
			usage = d.Usage
			req, err = prompt.BuildRequest(events[:i])
		case session.TypeCompactionSummary:
			var d session.CompactionSummary
			if json.Unmarshal(events[i].Data, &d) != nil || d.Usage.InputTokens <= 0 {
				continue
			}
			usage = d.Usage
			req, err = RebuildRequest(events, i)
		default:
			continue
		}
		if err != nil {
			return err
		}
		m.Observe(req, usage)
		return nil
	}
	return nil
}
