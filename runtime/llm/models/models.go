package models

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// DefaultContextWindow is assumed for a model the table does not know. It
// is deliberately small (most local servers run 32 K or less), so that
// compaction starts too early rather than too late.
const DefaultContextWindow = 32768

// Wire fields a server may use for reasoning text, in assistant deltas and
// in assistant messages sent back.
const (
	ReasoningContent = "reasoning_content" // DeepSeek, xAI, llama.cpp, DashScope
	Reasoning        = "reasoning"         // Groq, OpenRouter, vLLM, Ollama
)

// Price is what a model costs in US dollars per million tokens. Input is
// the cache-miss rate; CacheHit is charged instead for the part of the
// input the provider served from its prefix cache.
type Price struct {
	Input    float64 `json:"input" yaml:"input"`
	CacheHit float64 `json:"cacheHit" yaml:"cache_hit"`
	Output   float64 `json:"output" yaml:"output"`
}

// Model is what ptc knows about one model id.
type Model struct {
	ID       string `json:"id"`
	Provider string `json:"provider,omitempty"`
	// ContextWindow is the largest request plus answer, in tokens.
	ContextWindow int `json:"contextWindow"`
	// MaxOutput is the largest answer in tokens; 0 when unknown.
	MaxOutput int `json:"maxOutput,omitempty"`
	// Thinks is true when the model reasons before answering unless told
	// not to.
	Thinks bool `json:"thinks,omitempty"`
	// ReasoningField is the wire field the model's own API reads
	// reasoning back from (ReasoningContent or Reasoning). When the
	// adapter has not yet seen which field the server streams, every
	// assistant message with tool calls carries this one, even empty:
	// DeepSeek's thinking mode rejects a tool-call turn without it. Empty
	// means the table does not say: reasoning then goes back only in a
	// field the server was seen streaming.
	ReasoningField string `json:"reasoningField,omitempty"`
	// NoStreamOptions is true for APIs known to refuse the
	// stream_options request field (Mistral answers 422 "Extra inputs are
	// not permitted"): it is never sent to them, so the first request
	// already succeeds. Other servers that refuse it are learnt from
	// their answer (see the openai adapter).
	NoStreamOptions bool `json:"noStreamOptions,omitempty"`
	// Price is nil when the cost is unknown (local servers, hosts whose
	// prices the table does not carry).
	Price *Price `json:"price,omitempty"`
	// Known is false for an id the table does not list.
	Known bool `json:"known"`
	// Retired is the date (YYYY-MM-DD) the provider withdrew the model,
	// "" while it is served.
	Retired string `json:"retired,omitempty"`
	// Notice, when set, is one line the user should see once: the model
	// is unknown (and what was assumed) or retired.
	Notice string `json:"notice,omitempty"`
}

// Priced reports whether Cost means anything for m.
func (m Model) Priced() bool { return m.Price != nil }

// Cost is what usage cost in US dollars: cache-hit input at the cache-hit
// rate, the rest of the input at the input rate, output (reasoning
// included, as providers count it) at the output rate. It is 0 for a model
// without a price. The result is rounded to a billionth of a dollar so
// that printed figures stay short.
func (m Model) Cost(u llm.Usage) float64 {
	if m.Price == nil {
		return 0
	}
	in := max(u.InputTokens, 0)
	hit := min(max(u.CacheHitTokens, 0), in)
	usd := (float64(in-hit)*m.Price.Input + float64(hit)*m.Price.CacheHit +
		float64(max(u.OutputTokens, 0))*m.Price.Output) / 1e6
	return math.Round(usd*1e9) / 1e9
}

// WithContextWindow returns m with its window replaced when n > 0 (the
// --context-window flag); an unknown model then no longer needs the
// default-window notice.
func (m Model) WithContextWindow(n int) Model {
	if n <= 0 {
		return m
	}
	m.ContextWindow = n
	if !m.Known {
		m.Notice = ""
	}
	return m
}

// Table maps model ids to what is known about them. It is immutable once
// built and safe for concurrent use.
type Table struct {
	models map[string]Model
}

// Lookup returns the model with this id. Besides the exact id it
// recognises a provider prefix ("deepseek/deepseek-v4-flash", as
// OpenRouter names models; the gateway's reasoning field is its own, so
// ReasoningField is left empty) and a dated snapshot of a listed model
// ("gpt-4o-2024-08-06", "…-latest"). Anything else is unknown: the
// default window, no price, and a Notice saying what to set.
func (t *Table) Lookup(id string) Model {
	id = strings.TrimSpace(id)
	if m, ok := t.match(id); ok {
		m.ID = id
		return m
	}
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		if m, ok := t.match(id[i+1:]); ok {
			// A gateway serves it, in its own wire dialect.
			m.ID, m.ReasoningField = id, ""
			return m
		}
	}
	return Model{ID: id, ContextWindow: DefaultContextWindow,
		Notice: fmt.Sprintf("model %q is not in ptc's model table: assuming a %d-token context window and no price "+
			"(set them in $PTC_HOME/models.yaml, or pass --context-window N)", id, DefaultContextWindow)}
}

// match finds id exactly, or as a listed id plus a snapshot suffix; the
// longest listed id wins.
func (t *Table) match(id string) (Model, bool) {
	if m, ok := t.models[id]; ok {
		return m, true
	}
	best, found := Model{}, false
	for k, m := range t.models {
		rest, ok := strings.CutPrefix(id, k)
		if ok && snapshotSuffix(rest) && (!found || len(k) > len(best.ID)) {
			best, found = m, true
		}
	}
	return best, found
}

// snapshotSuffix reports a version tail such as "-2024-08-06", "-0813" or
// "-latest": digits-only segments, or the word latest.
func snapshotSuffix(s string) bool {
	if s == "-latest" {
		return true
	}
	if s == "" || s[0] != '-' {
		return false
	}
	for _, seg := range strings.Split(s[1:], "-") {
		if seg == "" || strings.Trim(seg, "0123456789") != "" {
			return false
		}
	}
	return true
}

// List returns every model of the table, sorted by provider, then id.
func (t *Table) List() []Model {
	out := make([]Model, 0, len(t.models))
	for _, m := range t.models {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Provider != out[j].Provider {
			return out[i].Provider < out[j].Provider
		}
		return out[i].ID < out[j].ID
	})
	return out
}
