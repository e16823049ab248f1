package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ptc-dev/ptc/runtime/tools"
)

// dispatch runs one call through a real registry and runner, as a session
// would.
func dispatch(t *testing.T, m *Manager, name, args string) tools.Result {
	t.Helper()
	reg, err := tools.NewRegistry(tools.PresentNative, m.Tools()...)
	if err != nil {
		t.Fatal(err)
	}
	r := tools.NewRunner(reg, tools.RunnerConfig{Approvals: tools.NewApprovals(tools.PolicyNever)})
	return r.Dispatch(context.Background(), tools.Call{ID: "c1", Name: name, Raw: args})
}

func toolNamed(t *testing.T, m *Manager, name string) *Tool {
	t.Helper()
	for _, tl := range m.Tools() {
		if tl.Spec().Name == name {
			return tl.(*Tool)
		}
	}
	t.Fatalf("no tool %s among %v", name, names(m.Tools()))
	return nil
}

func names(ts []tools.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Spec().Name)
	}
	return out
}

func TestAStdioServerIsListedAndCalledThroughThePipeline(t *testing.T) {
	logs := t.TempDir()
	m := startManager(t, []Server{testStdioServer(t, "test")}, Options{LogDir: logs})
	got := names(m.Tools())
	want := []string{"mcp__test__add", "mcp__test__bad_output", "mcp__test__crash", "mcp__test__echo", "mcp__test__fail",
		"mcp__test__grow", "mcp__test__json_text", "mcp__test__mixed", "mcp__test__needs-approval_x", "mcp__test__slow"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("tools (listed over pages of 3):\n got %v\nwant %v", got, want)
	}
	t.Run("schemas keep the server's member order", func(t *testing.T) {
		in := string(toolNamed(t, m, "mcp__test__echo").Spec().InputSchema)
		if strings.Index(in, "zeta") > strings.Index(in, "alpha") {
			t.Errorf("zeta should come before alpha: %s", in)
		}
	})
	t.Run("readOnlyHint makes a tool concurrency-safe", func(t *testing.T) {
		if !toolNamed(t, m, "mcp__test__echo").ConcurrencySafe(nil) || toolNamed(t, m, "mcp__test__fail").ConcurrencySafe(nil) {
			t.Error("echo is read-only, fail is not")
		}
	})
	cases := []struct {
		name, tool, args string
		value            string // JSON of the value, or the string
		code             string
	}{
		{"text that is not JSON is a string", "mcp__test__echo", `{"zeta":"hi"}`, `"hi"`, ""},
		{"structured content is the value, in the server's order", "mcp__test__add", `{"a":2,"b":3}`, `{"sum": 5, "inputs": [2, 3]}`, ""},
		{"JSON text is JSON, big integers exact", "mcp__test__json_text", `{}`, `{"z": 1, "a": [true, null], "big": 12345678901234567890}`, ""},
		{"isError is a tool failure with the text", "mcp__test__fail", `{}`, "", tools.CodeToolFailed},
		{"mixed content is an array of parts", "mcp__test__mixed", `{}`, `["a picture:",{"type":"image","mimeType":"image/png","data":"iVBORyBmYWtl"}]`, ""},
		{"structured content is checked against the output schema", "mcp__test__bad_output", `{}`, "", tools.CodeInvalidToolOutput},
		{"arguments are checked against the input schema", "mcp__test__add", `{"a":"x"}`, "", tools.CodeInvalidArgs},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := dispatch(t, m, c.tool, c.args)
			if c.code != "" {
				if !res.IsError || res.Error == nil || res.Error.Code != c.code {
					t.Fatalf("want a %s failure, got %+v", c.code, res)
				}
				return
			}
			if res.IsError {
				t.Fatalf("unexpected failure: %s", res.Content)
			}
			b, _ := json.Marshal(res.Value)
			var want any
			if json.Unmarshal([]byte(c.value), &want) == nil {
				wb, _ := json.Marshal(json.RawMessage(c.value))
				if string(b) != string(wb) {
					t.Errorf("value %s, want %s", b, wb)
				}
			}
		})
	}
	t.Run("an image renders as its size, not its bytes", func(t *testing.T) {
		res := dispatch(t, m, "mcp__test__mixed", `{}`)
		if !strings.Contains(res.Content, "[image image/png, 12 bytes of base64 data]") {
			t.Errorf("rendered: %q", res.Content)
		}
	})
	t.Run("the failure message is the tool's text", func(t *testing.T) {
		res := dispatch(t, m, "mcp__test__fail", `{}`)
		if !strings.Contains(res.Content, "boom: the widget is broken") {
			t.Errorf("content: %q", res.Content)
		}
	})
	t.Run("stderr goes to the server's log file", func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(logs, "test.log"))
		if err != nil || !strings.Contains(string(b), "test server") {
			t.Errorf("log: %q, %v", b, err)
		}
	})
}

func TestACallIsBoundedByTheServerTimeoutAndCancellable(t *testing.T) {
	srv := testStdioServer(t, "t")
	srv.Timeout = 0.2
	m := startManager(t, []Server{srv}, Options{})
	res := dispatch(t, m, "mcp__t__slow", `{"ms":5000}`)
	if res.Error == nil || res.Error.Code != tools.CodeToolTimeout {
		t.Fatalf("want TOOL_TIMEOUT, got %+v", res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := toolNamed(t, m, "mcp__t__slow").Execute(ctx, tools.Call{Args: json.RawMessage(`{"ms":5000}`)})
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled call should end with the context's error, got %v", err)
	}
	if res := dispatch(t, m, "mcp__t__echo", `{"zeta":"still up"}`); res.IsError {
		t.Fatalf("the server should still answer: %s", res.Content)
	}
}

func TestACrashedServerIsAToolErrorAndIsReconnected(t *testing.T) {
	var mu sync.Mutex
	var notes []string
	logs := t.TempDir()
	m := startManager(t, []Server{testStdioServer(t, "flaky")}, Options{LogDir: logs, Notify: func(s string) {
		mu.Lock()
		notes = append(notes, s)
		mu.Unlock()
	}})
	res := dispatch(t, m, "mcp__flaky__crash", `{}`)
	if res.Error == nil || res.Error.Code != tools.CodeToolOutcomeUnknown || !strings.Contains(res.Content, "restarting") {
		t.Fatalf("a crash mid-call should be TOOL_OUTCOME_UNKNOWN, got %+v", res)
	}
	res = dispatch(t, m, "mcp__flaky__echo", `{"zeta":"back"}`)
	if res.IsError || res.Value != "back" {
		t.Fatalf("the next call should reach the restarted server, got %+v", res)
	}
	b, _ := os.ReadFile(filepath.Join(logs, "flaky.log"))
	if strings.Count(string(b), "test server") < 2 || !strings.Contains(string(b), "crashing on purpose") {
		t.Errorf("the log should show both starts and the crash:\n%s", b)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notes) < 2 || !strings.Contains(notes[0], "stopped") || !strings.Contains(notes[len(notes)-1], "is back") {
		t.Errorf("notices: %q", notes)
	}
}

func TestListChangedResyncsAtTheNextRefresh(t *testing.T) {
	m := startManager(t, []Server{testStdioServer(t, "t")}, Options{})
	if m.Refresh(context.Background()) {
		t.Fatal("nothing changed yet")
	}
	if res := dispatch(t, m, "mcp__t__grow", `{}`); res.IsError {
		t.Fatal(res.Content)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !m.Refresh(context.Background()) {
		if time.Now().After(deadline) {
			t.Fatal("tools/list_changed never made the tool set change")
		}
		time.Sleep(10 * time.Millisecond)
	}
	toolNamed(t, m, "mcp__t__grown")
	if res := dispatch(t, m, "mcp__t__grown", `{}`); res.Value != "grown" {
		t.Fatalf("the new tool should be callable: %+v", res)
	}
}

func TestAnHTTPServerGetsItsHeaders(t *testing.T) {
	hs, seen := testHTTPServer(t)
	m := startManager(t, []Server{{Name: "web", Source: SourceUser, Type: "http", URL: hs.URL,
		Headers: map[string]string{"X-Test": "${PTC_TEST_TOKEN}"}}}, Options{Getenv: func(k string) string {
		if k == "PTC_TEST_TOKEN" {
			return "secret-1"
		}
		return ""
	}})
	res := dispatch(t, m, "mcp__web__add", `{"a":1,"b":1}`)
	if res.IsError {
		t.Fatal(res.Content)
	}
	if seen.Load() != "secret-1" {
		t.Errorf("header seen by the server: %q", seen.Load())
	}
}

func TestApprovalFollowsTheServerAndToolSettings(t *testing.T) {
	srv := testStdioServer(t, "t")
	srv.ToolApproval = map[string]string{"needs-approval.x": ApprovalAsk}
	m := startManager(t, []Server{srv}, Options{})
	res := dispatch(t, m, "mcp__t__needs-approval_x", `{}`)
	if res.Error == nil || res.Error.Code != tools.CodeDenied {
		t.Fatalf("under policy never an ask tool is denied, got %+v", res)
	}
	if res := dispatch(t, m, "mcp__t__echo", `{"zeta":"x"}`); res.IsError {
		t.Fatalf("other tools run without asking: %s", res.Content)
	}
}

func TestAServerThatCannotStartIsANoticeNotAFailure(t *testing.T) {
	m := startManager(t, []Server{{Name: "ghost", Source: SourceUser, Command: "/nonexistent/mcp-server"}},
		Options{Backoff: Backoff{Initial: time.Millisecond, Max: time.Millisecond, Attempts: 2}})
	if len(m.Tools()) != 0 {
		t.Fatal("a server that is not running has no tools")
	}
	st := m.Servers()
	if len(st) != 1 || st[0].State == StateUp {
		t.Fatalf("status: %+v", st)
	}
}

func TestARestartedHTTPServerIsReconnected(t *testing.T) {
	var mu sync.Mutex
	handler := http.Handler(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return newTestServer() }, nil))
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		h := handler
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer hs.Close()
	m := startManager(t, []Server{{Name: "web", Source: SourceUser, Type: "http", URL: hs.URL}}, Options{})
	if res := dispatch(t, m, "mcp__web__echo", `{"zeta":"one"}`); res.Value != "one" {
		t.Fatalf("first call: %+v", res)
	}
	mu.Lock() // a restart: the new server knows none of the old sessions
	handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return newTestServer() }, nil)
	mu.Unlock()
	if res := dispatch(t, m, "mcp__web__echo", `{"zeta":"two"}`); res.Value != "two" {
		t.Fatalf("a call after the restart should reach the new server (its session was never run there): %+v", res)
	}
}
