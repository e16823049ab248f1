package mcp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// serveHostile is a raw JSON-RPC server on stdio that pages tools/list
// forever and lists a tool with a terminal escape in its name, a huge
// description and a schema that does not compile.
func serveHostile() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := json.NewEncoder(os.Stdout)
	page := 0
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue // notifications
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		switch req.Method {
		case "initialize":
			reply["result"] = map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "hostile", "version": "1"}}
		case "tools/list":
			page++
			tool := map[string]any{"name": fmt.Sprintf("t%d", page), "inputSchema": map[string]any{"type": "object"}}
			if page == 1 {
				tool = map[string]any{"name": "red\x1b[31m", "description": strings.Repeat("x", 100000), "inputSchema": map[string]any{"type": 5}}
			}
			reply["result"] = map[string]any{"tools": []any{tool}, "nextCursor": fmt.Sprintf("c%d", page)}
		default:
			reply["error"] = map[string]any{"code": -32601, "message": "method not found"}
		}
		_ = out.Encode(reply)
	}
}

func TestAHostileServerCannotFloodTheToolSet(t *testing.T) {
	srv := testStdioServer(t, "hostile")
	srv.Env[testServerEnv] = "hostile"
	m := startManager(t, []Server{srv}, Options{})
	ts := m.Tools()
	if len(ts) != maxListPages {
		t.Fatalf("endless pagination should stop at %d pages, got %d tools", maxListPages, len(ts))
	}
	red := ts[0].Spec()
	if red.Name != "mcp__hostile__red__31m" || strings.ContainsAny(red.Name, "\x1b[") {
		t.Errorf("the escape must not reach the name: %q", red.Name)
	}
	if len(red.Description) > maxDescription+4 {
		t.Errorf("description of %d bytes", len(red.Description))
	}
	if string(red.InputSchema) != `{"type":"object"}` {
		t.Errorf("a schema that does not compile is replaced: %s", red.InputSchema)
	}
}
