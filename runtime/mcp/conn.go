package mcp

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK decodes tool schemas and results into map[string]any, which
// loses the order of object members (the SDK would list a tool's
// parameters alphabetically) and the precision of large integers. A
// capturing connection keeps the raw JSON of the responses to the
// requests whose context carries a rawSlot.

type rawSlotKey struct{}

// rawSlot receives the raw results of the requests made with its context,
// in the order they arrive.
type rawSlot struct {
	mu      sync.Mutex
	results []json.RawMessage
}

func (s *rawSlot) add(r json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.results = append(s.results, append(json.RawMessage(nil), r...))
}

func (s *rawSlot) last() json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.results) == 0 {
		return nil
	}
	return s.results[len(s.results)-1]
}

func withSlot(ctx context.Context, s *rawSlot) context.Context {
	return context.WithValue(ctx, rawSlotKey{}, s)
}

// capturing wraps a transport so its connection records raw results.
type capturing struct{ sdk.Transport }

func (t capturing) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &captureConn{Connection: c, pending: map[any]*rawSlot{}}, nil
}

type captureConn struct {
	sdk.Connection
	mu      sync.Mutex
	pending map[any]*rawSlot // request id → slot
}

func (c *captureConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
		if s, ok := ctx.Value(rawSlotKey{}).(*rawSlot); ok {
			c.mu.Lock()
			c.pending[req.ID.Raw()] = s
			c.mu.Unlock()
		}
	}
	return c.Connection.Write(ctx, msg)
}

func (c *captureConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil && resp.ID.IsValid() {
		c.mu.Lock()
		s := c.pending[resp.ID.Raw()]
		delete(c.pending, resp.ID.Raw())
		c.mu.Unlock()
		if s != nil && resp.Error == nil {
			s.add(resp.Result)
		}
	}
	return msg, err
}
