package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary doubles as an MCP server: run with PTC_MCP_TEST_SERVER
// set, TestMain serves the test tools over stdio instead of testing.
const testServerEnv = "PTC_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(testServerEnv) == "hostile" {
		serveHostile()
		os.Exit(0)
	}
	if os.Getenv(testServerEnv) != "" {
		fmt.Fprintf(os.Stderr, "test server %d started\n", os.Getpid())
		if err := newTestServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "test server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

func args(req *sdk.CallToolRequest) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(req.Params.Arguments, &m)
	return m
}

// newTestServer has one tool per behaviour the client must handle.
func newTestServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "ptc-test", Version: "1"}, &sdk.ServerOptions{PageSize: 3})
	add := func(name, schema string, out string, readOnly bool, h sdk.ToolHandler) {
		t := &sdk.Tool{Name: name, Description: "the " + name + " tool", InputSchema: json.RawMessage(schema)}
		if out != "" {
			t.OutputSchema = json.RawMessage(out)
		}
		if readOnly {
			t.Annotations = &sdk.ToolAnnotations{ReadOnlyHint: true}
		}
		s.AddTool(t, h)
	}
	obj := `{"type":"object"}`
	add("echo", `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"string"}},"required":["zeta"]}`, "", true,
		func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text(fmt.Sprint(args(r)["zeta"])), nil
		})
	add("add", `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`,
		`{"type":"object","properties":{"sum":{"type":"number"},"inputs":{"type":"array"}},"required":["sum"]}`, true,
		func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			a := args(r)
			sum := a["a"].(float64) + a["b"].(float64)
			res := text(fmt.Sprintf(`{"sum": %v, "inputs": [%v, %v]}`, sum, a["a"], a["b"]))
			res.StructuredContent = map[string]any{"sum": sum, "inputs": []any{a["a"], a["b"]}}
			return res, nil
		})
	add("json_text", obj, "", false, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return text(`{"z": 1, "a": [true, null], "big": 12345678901234567890}`), nil
	})
	add("fail", obj, "", false, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		r := text("boom: the widget is broken")
		r.IsError = true
		return r, nil
	})
	add("mixed", obj, "", false, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a picture:"},
			&sdk.ImageContent{MIMEType: "image/png", Data: []byte("\x89PNG fake")}}}, nil
	})
	add("bad_output", obj, `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`, false,
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{}, StructuredContent: map[string]any{"n": "not a number"}}, nil
		})
	add("slow", `{"type":"object","properties":{"ms":{"type":"integer"}}}`, "", false,
		func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			ms, _ := args(r)["ms"].(float64)
			select {
			case <-time.After(time.Duration(ms) * time.Millisecond):
				return text("done"), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	add("crash", obj, "", false, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "crashing on purpose")
		os.Exit(3)
		return nil, nil
	})
	add("grow", obj, "", false, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		s.AddTool(&sdk.Tool{Name: "grown", Description: "added at run time", InputSchema: json.RawMessage(obj)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text("grown"), nil })
		return text("grew"), nil
	})
	add("needs-approval.x", obj, "", false, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return text("approved"), nil
	})
	return s
}

// testStdioServer is the configuration of the test binary as a server.
func testStdioServer(t *testing.T, name string) Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Server{Name: name, Source: SourceUser, Command: exe, Args: []string{"-test.run=^$"},
		Env: map[string]string{testServerEnv: "1"}}
}

// testHTTPServer serves the test tools over streamable HTTP and records
// the value of the X-Test header of the requests it received.
func testHTTPServer(t *testing.T) (*httptest.Server, *atomic.Value) {
	t.Helper()
	seen := &atomic.Value{}
	seen.Store("")
	srv := newTestServer()
	h := sdk.NewStreamableHTTPHandler(func(r *http.Request) *sdk.Server {
		if v := r.Header.Get("X-Test"); v != "" {
			seen.Store(v)
		}
		return srv
	}, nil)
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	return hs, seen
}

func startManager(t *testing.T, servers []Server, opts Options) *Manager {
	t.Helper()
	if opts.Backoff.Attempts == 0 {
		opts.Backoff = Backoff{Initial: 20 * time.Millisecond, Max: 200 * time.Millisecond, Attempts: 20}
	}
	m, notices := Start(context.Background(), servers, opts)
	t.Cleanup(func() { _ = m.Close() })
	for _, n := range notices {
		if !strings.Contains(n, "missing") {
			t.Logf("notice: %s", n)
		}
	}
	return m
}
