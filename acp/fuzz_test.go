package acp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/ptc-dev/ptc/acp"
	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
)

// FuzzFrames feeds arbitrary input to the agent's message decoder (the
// SDK's connection, then this package's handlers): it never crashes, and
// everything it writes is JSON-RPC 2.0, one message a line.
func FuzzFrames(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"relative","mcpServers":[]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"x","prompt":[{"type":"text","text":"hi"}]}}`,
		`{"jsonrpc":"2.0","id":4,"method":"session/load","params":{"sessionId":"../../etc","cwd":"/","mcpServers":[]}}`,
		`{"jsonrpc":"2.0","id":5,"method":"session/set_mode","params":{"sessionId":"x","modeId":"plan"}}`,
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"x"}}`,
		`{"jsonrpc":"2.0","id":6,"method":"session/new","params":{"cwd":"/nonexistent","mcpServers":[{"name":"","command":""}]}}`,
		`{"jsonrpc":"2.0","id":[],"method":"initialize"}`,
		"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"_x\",\"params\":\"\u202e\x1b[2J\"}",
		`not json`, `{}`, `[]`, `{"jsonrpc":"2.0","id":1e400,"method":"session/list","params":{}}`,
	} {
		f.Add([]byte(s + "\n"))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var out lockedBuffer
		cfg := acp.Config{Home: theHome, Options: harness.Options{Settings: session.Settings{Model: "script:/nonexistent"}}}
		if err := acp.Serve(context.Background(), cfg, bytes.NewReader(in), &out); err != nil {
			t.Logf("serve: %v", err)
		}
		// A request still in flight when the input ended may answer
		// later; what is written so far is whole messages.
		sc := bufio.NewScanner(bytes.NewReader(out.snapshot()))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m struct {
				JSONRPC string `json:"jsonrpc"`
			}
			if json.Unmarshal(sc.Bytes(), &m) != nil || m.JSONRPC != "2.0" {
				t.Fatalf("not a frame: %q", sc.Text())
			}
		}
	})
}

// lockedBuffer is a writer safe for the connection's writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) snapshot() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}
