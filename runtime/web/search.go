package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/internal/clip"
)

// Search limits.
const (
	// SearchTimeout bounds one backend request.
	SearchTimeout = 20 * time.Second
	// maxAnswer is how much of a backend's answer is read.
	maxAnswer = 4 << 20
	// Field caps of one result.
	maxTitle, maxURL, maxSnippet = 300, 2048, 600
)

// Result is one search hit.
type Result struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet,omitempty"`
}

// Searcher is the seam between web_search and a search service: one
// query in, at most n results out. Name is the backend's name for events.
type Searcher interface {
	Name() string
	Search(ctx context.Context, query string, n int) ([]Result, error)
}

// NewSearcher returns the backend c configures (Config.Backend, else the
// first configured of SearXNG, Brave, Tavily), or ErrNoBackend.
func NewSearcher(c Config) (Searcher, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if s := c.searcher(); s != nil {
		return s, nil
	}
	return nil, ErrNoBackend
}

func (c Config) searcher() Searcher {
	hc := &http.Client{Timeout: SearchTimeout}
	all := []struct {
		name string
		ok   bool
		s    Searcher
	}{
		{BackendSearXNG, c.SearXNGURL != "", searxng{hc, strings.TrimRight(c.SearXNGURL, "/")}},
		{BackendBrave, c.BraveAPIKey != "", brave{hc, or(c.braveURL, "https://api.search.brave.com/res/v1/web/search"), c.BraveAPIKey}},
		{BackendTavily, c.TavilyAPIKey != "", tavily{hc, or(c.tavilyURL, "https://api.tavily.com/search"), c.TavilyAPIKey}},
	}
	for _, b := range all {
		if b.ok && (c.Backend == "" || c.Backend == b.name) {
			return b.s
		}
	}
	return nil
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// searxng asks a SearXNG instance's JSON API.
type searxng struct {
	hc   *http.Client
	base string
}

func (searxng) Name() string { return BackendSearXNG }

func (s searxng) Search(ctx context.Context, q string, n int) ([]Result, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/search?"+url.Values{"q": {q}, "format": {"json"}}.Encode(), nil)
	if err != nil {
		return nil, fmt.Errorf("%s is not a usable SearXNG URL: %v", EnvSearXNG, err)
	}
	var ans struct {
		Results []struct{ Title, URL, Content string } `json:"results"`
	}
	if err := ask(s.hc, req, BackendSearXNG, &ans); err != nil {
		return nil, err
	}
	var out []Result
	for _, r := range ans.Results {
		out = append(out, Result{r.Title, r.URL, r.Content})
	}
	return tidy(out, n), nil
}

// brave asks the Brave Search API.
type brave struct {
	hc       *http.Client
	endpoint string
	key      string
}

func (brave) Name() string { return BackendBrave }

func (b brave) Search(ctx context.Context, q string, n int) ([]Result, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.endpoint+"?"+url.Values{"q": {q}, "count": {strconv.Itoa(n)}}.Encode(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Subscription-Token", b.key)
	var ans struct {
		Web struct {
			Results []struct{ Title, URL, Description string } `json:"results"`
		} `json:"web"`
	}
	if err := ask(b.hc, req, BackendBrave, &ans); err != nil {
		return nil, err
	}
	var out []Result
	for _, r := range ans.Web.Results {
		out = append(out, Result{r.Title, r.URL, r.Description})
	}
	return tidy(out, n), nil
}

// tavily asks the Tavily search API.
type tavily struct {
	hc       *http.Client
	endpoint string
	key      string
}

func (tavily) Name() string { return BackendTavily }

func (t tavily) Search(ctx context.Context, q string, n int) ([]Result, error) {
	body, _ := json.Marshal(map[string]any{"query": q, "max_results": n})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+t.key)
	var ans struct {
		Results []struct{ Title, URL, Content string } `json:"results"`
	}
	if err := ask(t.hc, req, BackendTavily, &ans); err != nil {
		return nil, err
	}
	var out []Result
	for _, r := range ans.Results {
		out = append(out, Result{r.Title, r.URL, r.Content})
	}
	return tidy(out, n), nil
}

// ask sends req and decodes a JSON answer into v; a failure names the
// backend, never its key.
func ask(hc *http.Client, req *http.Request, backend string, v any) error {
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "ptc-web-search/1")
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("%s search failed: %v", backend, redact(err))
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return fmt.Errorf("%s search failed reading the answer: %v", backend, redact(err))
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s search answered %s: %s", backend, resp.Status, clip.String(Clean(string(b)), 200))
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s search answered something that is not its JSON: %v", backend, err)
	}
	return nil
}

// redact drops the URL (which may hold a query the user typed, never a
// key here, but is long) from a transport error, keeping its cause.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// tidy keeps the first n results with an http(s) URL, fields cleaned
// and capped.
func tidy(rs []Result, n int) []Result {
	out := []Result{}
	for _, r := range rs {
		if len(out) == n {
			break
		}
		u, err := url.Parse(r.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			continue
		}
		out = append(out, Result{
			Title:   clip.String(oneLine(r.Title), maxTitle),
			URL:     clip.String(oneLine(r.URL), maxURL),
			Snippet: clip.String(oneLine(r.Snippet), maxSnippet),
		})
	}
	return out
}

// oneLine is Clean with the text's whitespace runs made single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(Clean(s)), " ") }
