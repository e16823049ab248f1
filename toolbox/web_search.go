package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/web"
)

// WebSearchName is the web_search tool's wire name.
const WebSearchName = "web_search"

// webSearchHits is how many results one query returns.
const webSearchHits = 8

// WebSearchIn is web_search's input.
type WebSearchIn struct {
	Queries []string `json:"queries"`
}

// WebSearchOut is web_search's value: the results of each query in the
// order asked.
type WebSearchOut struct {
	Backend string        `json:"backend"`
	Results []QueryResult `json:"results"`
}

// QueryResult is one query's hits, or why it failed.
type QueryResult struct {
	Query string       `json:"query"`
	Hits  []web.Result `json:"hits"`
	Error string       `json:"error,omitempty"`
}

const webSearchInSchema = `{
  "type": "object",
  "properties": {
    "queries": {"type": "array", "minItems": 1, "maxItems": 4, "description": "One to four search queries, run together.",
      "items": {"type": "string", "minLength": 1, "maxLength": 400}}
  },
  "required": ["queries"],
  "additionalProperties": false
}`

const webSearchOutSchema = `{
  "type": "object",
  "properties": {
    "backend": {"type": "string"},
    "results": {"type": "array", "items": {
      "type": "object",
      "properties": {
        "query": {"type": "string"},
        "hits": {"type": "array", "items": {
          "type": "object",
          "properties": {"title": {"type": "string"}, "url": {"type": "string"}, "snippet": {"type": "string"}},
          "required": ["title", "url"],
          "additionalProperties": false
        }},
        "error": {"type": "string"}
      },
      "required": ["query", "hits"],
      "additionalProperties": false
    }}
  },
  "required": ["backend", "results"],
  "additionalProperties": false
}`

// WebSearch returns the web_search tool over the backend c configures.
// With none, every call fails saying how to configure one. Queries run
// in parallel; the call fails only when every query did. Every call is a
// web/search event.
func WebSearch(c web.Config) tools.Tool {
	s, cfgErr := web.NewSearcher(c)
	spec := tools.Spec{Name: WebSearchName, Description: doc(WebSearchName), InputSchema: json.RawMessage(webSearchInSchema), OutputSchema: json.RawMessage(webSearchOutSchema)}
	return tools.New(spec, func(ctx context.Context, call tools.Call, in WebSearchIn) (WebSearchOut, error) {
		start := time.Now()
		ev := session.WebSearch{CallID: call.ID, Queries: in.Queries}
		if cfgErr != nil {
			ev.Error = cfgErr.Error()
			emit(tools.EnvFrom(ctx), session.TypeWebSearch, ev)
			return WebSearchOut{}, tools.Errorf(tools.CodeToolFailed, "%v; tell the user web search needs this", cfgErr)
		}
		out := WebSearchOut{Backend: s.Name(), Results: searchAll(ctx, s, in.Queries)}
		failed := 0
		for _, r := range out.Results {
			ev.Results += len(r.Hits)
			if r.Error != "" {
				failed++
			}
		}
		ev.Backend, ev.DurationMs = s.Name(), time.Since(start).Milliseconds()
		if failed == len(out.Results) {
			ev.Error = out.Results[0].Error
		}
		emit(tools.EnvFrom(ctx), session.TypeWebSearch, ev)
		if ev.Error != "" {
			return WebSearchOut{}, tools.Errorf(tools.CodeToolFailed, "%s", ev.Error)
		}
		return out, nil
	}, tools.Safe(), tools.WithTimeout(web.SearchTimeout+5*time.Second), tools.WithRenderer(func(v any) string { return renderSearch(v.(WebSearchOut)) }))
}

// searchAll runs the queries in parallel, results in the order asked.
func searchAll(ctx context.Context, s web.Searcher, queries []string) []QueryResult {
	out := make([]QueryResult, len(queries))
	var wg sync.WaitGroup
	for i, q := range queries {
		wg.Go(func() {
			hits, err := s.Search(ctx, q, webSearchHits)
			out[i] = QueryResult{Query: q, Hits: hits}
			if out[i].Hits == nil {
				out[i].Hits = []web.Result{}
			}
			if err != nil {
				out[i].Error = web.Clean(err.Error())
			}
		})
	}
	wg.Wait()
	return out
}

// renderSearch lists each query's hits inside the untrusted wrapper.
func renderSearch(o WebSearchOut) string {
	var b strings.Builder
	for i, r := range o.Results {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "## %s\n", web.Clean(r.Query))
		if r.Error != "" {
			fmt.Fprintf(&b, "(failed: %s)\n", r.Error)
			continue
		}
		if len(r.Hits) == 0 {
			b.WriteString("(no results)\n")
		}
		for n, h := range r.Hits {
			fmt.Fprintf(&b, "%d. %s\n   %s\n", n+1, h.Title, h.URL)
			if h.Snippet != "" {
				fmt.Fprintf(&b, "   %s\n", h.Snippet)
			}
		}
	}
	return web.Untrusted(WebSearchName, fmt.Sprintf(" backend=%q", o.Backend), strings.TrimRight(b.String(), "\n"))
}
