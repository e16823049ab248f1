package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// webServer is a local page and a fake SearXNG endpoint.
func webServer(t *testing.T) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><head><title>T</title></head><body><h2>Local docs</h2><p>See <a href="https://example.org/more">more</a>.</p></body></html>`)
		case "/search":
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"results": []any{
				map[string]any{"title": "Result for " + r.URL.Query().Get("q"), "url": "https://example.org/r1", "content": "snippet"},
			}})
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// toolResults runs script in a fresh home and returns the tool results
// and the events.
func webRun(t *testing.T, env []string, flags []string, replies ...map[string]any) ([]session.ToolResult, []session.Event) {
	t.Helper()
	c := newCLI(t, env...)
	args := append([]string{"run", "--workspace", workspace(t), "--model", "script:" + writeScript(t, replies...), "--output", "json"}, flags...)
	f := parseFinal(t, c.ok(append(args, "look it up")...))
	events := c.show(f.SessionID).Events
	var out []session.ToolResult
	for _, e := range sessiontest.OfType(events, session.TypeToolResult) {
		out = append(out, sessiontest.Decode[session.ToolResult](t, e))
	}
	return out, events
}

func TestWebFetchThroughTheCLI(t *testing.T) {
	t.Parallel()
	s := webServer(t)
	fetch := call("web_fetch", map[string]any{"url": s.URL + "/page"})
	t.Run("allowed explicitly, a local page comes back as markdown", func(t *testing.T) {
		t.Parallel()
		rs, events := webRun(t, []string{"PTC_WEB_ALLOW_PRIVATE=1"}, []string{"--preset", "standard", "--web-fetch"}, fetch, map[string]any{"text": "done"})
		text := rs[0].Content[0].Text
		if rs[0].IsError || !strings.Contains(text, "## Local docs") || !strings.Contains(text, "[more](https://example.org/more)") || !strings.Contains(text, `untrusted="true"`) {
			t.Fatalf("result: %+v", rs[0])
		}
		ev := sessiontest.Decode[session.WebFetch](t, sessiontest.OfType(events, session.TypeWebFetch)[0])
		if ev.Status != 200 || ev.ContentType != "text/html" || ev.Error != "" || ev.CallID == "" {
			t.Fatalf("event: %+v", ev)
		}
	})
	t.Run("without the allowance a loopback address is refused, and logged", func(t *testing.T) {
		t.Parallel()
		rs, events := webRun(t, nil, []string{"--preset", "standard", "--web-fetch"}, fetch, map[string]any{"text": "done"})
		if !rs[0].IsError || !strings.Contains(rs[0].Content[0].Text, "loopback") || !strings.Contains(rs[0].Content[0].Text, "PTC_WEB_ALLOW_PRIVATE") {
			t.Fatalf("result: %+v", rs[0])
		}
		if ev := sessiontest.Decode[session.WebFetch](t, sessiontest.OfType(events, session.TypeWebFetch)[0]); !strings.Contains(ev.Error, "loopback") {
			t.Fatalf("event: %+v", ev)
		}
	})
	t.Run("off by default", func(t *testing.T) {
		t.Parallel()
		rs, _ := webRun(t, []string{"PTC_WEB_ALLOW_PRIVATE=1"}, []string{"--preset", "standard"}, fetch, map[string]any{"text": "done"})
		if !rs[0].IsError || rs[0].Error.Code != "UNKNOWN_TOOL" {
			t.Fatalf("result: %+v", rs[0])
		}
	})
}

func TestWebSearchThroughTheCLI(t *testing.T) {
	t.Parallel()
	s := webServer(t)
	search := call("web_search", map[string]any{"queries": []string{"go modules", "bubblewrap"}})
	t.Run("a fake SearXNG's titles and URLs come back, in plan mode too", func(t *testing.T) {
		t.Parallel()
		rs, events := webRun(t, []string{"PTC_SEARXNG_URL=" + s.URL}, []string{"--preset", "standard", "--plan"}, search, map[string]any{"text": "done"})
		text := rs[0].Content[0].Text
		for _, want := range []string{"Result for go modules", "Result for bubblewrap", "https://example.org/r1", `backend="searxng"`} {
			if rs[0].IsError || !strings.Contains(text, want) {
				t.Fatalf("result lacks %q: %+v", want, rs[0])
			}
		}
		ev := sessiontest.Decode[session.WebSearch](t, sessiontest.OfType(events, session.TypeWebSearch)[0])
		if ev.Backend != "searxng" || ev.Results != 2 || len(ev.Queries) != 2 {
			t.Fatalf("event: %+v", ev)
		}
	})
	t.Run("with no backend the tool says how to configure one", func(t *testing.T) {
		t.Parallel()
		rs, _ := webRun(t, nil, []string{"--preset", "ptc"}, call("run_code", map[string]any{"description": "search",
			"code": `try { await tools.web_search({queries: ["x"]}) } catch (e) { return e.message }`}), map[string]any{"text": "done"})
		text := rs[0].Content[0].Text
		if !strings.Contains(text, "PTC_SEARXNG_URL") || !strings.Contains(text, "BRAVE_API_KEY") || !strings.Contains(text, "settings.json") {
			t.Fatalf("result: %+v", rs[0])
		}
	})
}
