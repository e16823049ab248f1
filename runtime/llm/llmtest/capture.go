package llmtest

import (
	"context"
	"sync"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// Capture wraps a provider and records every request it is sent, in
// order, so a test can compare what the model saw with what the session
// log rebuilds. Safe for concurrent use.
type Capture struct {
	llm.Provider

	mu   sync.Mutex
	reqs []llm.Request
}

// Stream records req and passes it on.
func (c *Capture) Stream(ctx context.Context, req llm.Request, onChunk func(llm.Chunk)) (*llm.Response, error) {
	c.mu.Lock()
	c.reqs = append(c.reqs, req)
	c.mu.Unlock()
	return c.Provider.Stream(ctx, req, onChunk)
}

// Requests returns the requests so far.
func (c *Capture) Requests() []llm.Request {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]llm.Request(nil), c.reqs...)
}
