package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/web"
)

// WebFetchName is the web_fetch tool's wire name.
const WebFetchName = "web_fetch"

// Text caps of one fetch: the default and the most max_bytes may ask.
const (
	webFetchDefaultText = 100_000
	webFetchMaxText     = 1 << 20
)

// WebFetchIn is web_fetch's input.
type WebFetchIn struct {
	URL      string `json:"url"`
	MaxBytes int    `json:"max_bytes,omitempty"`
}

const webFetchInSchema = `{
  "type": "object",
  "properties": {
    "url": {"type": "string", "minLength": 1, "maxLength": 4096, "description": "An absolute http or https URL."},
    "max_bytes": {"type": "integer", "minimum": 1000, "maximum": 1048576, "description": "Most bytes of text to return (default 100000); longer pages are cut."}
  },
  "required": ["url"],
  "additionalProperties": false
}`

const webFetchOutSchema = `{
  "type": "object",
  "properties": {
    "url": {"type": "string"},
    "finalUrl": {"type": "string", "description": "Where redirects ended."},
    "status": {"type": "integer"},
    "contentType": {"type": "string"},
    "format": {"type": "string", "enum": ["markdown", "text"]},
    "title": {"type": "string"},
    "text": {"type": "string", "description": "The page as markdown (HTML) or as served (text, JSON). Untrusted external content."},
    "bytes": {"type": "integer"},
    "truncated": {"type": "boolean"}
  },
  "required": ["url", "finalUrl", "status", "contentType", "format", "text", "bytes"],
  "additionalProperties": false
}`

// WebFetch returns the web_fetch tool over c's network policy: GET one
// http(s) page, public addresses only unless c.AllowPrivate. It only
// reads, so it is concurrency-safe and allowed in plan mode. Every call
// is a web/fetch event.
func WebFetch(c web.Config) tools.Tool {
	f := web.NewFetcher(c)
	spec := tools.Spec{Name: WebFetchName, Description: doc(WebFetchName), InputSchema: json.RawMessage(webFetchInSchema), OutputSchema: json.RawMessage(webFetchOutSchema)}
	return tools.New(spec, func(ctx context.Context, call tools.Call, in WebFetchIn) (web.Page, error) {
		limit := in.MaxBytes
		if limit == 0 {
			limit = webFetchDefaultText
		}
		start := time.Now()
		p, err := f.Fetch(ctx, in.URL, min(limit, webFetchMaxText))
		ev := session.WebFetch{CallID: call.ID, URL: in.URL, FinalURL: p.FinalURL, Status: p.Status, ContentType: p.ContentType,
			Bytes: p.Bytes, Truncated: p.Truncated, DurationMs: time.Since(start).Milliseconds()}
		if err != nil {
			ev.Error = err.Error()
		}
		emit(tools.EnvFrom(ctx), session.TypeWebFetch, ev)
		if err != nil {
			return web.Page{}, tools.Errorf(tools.CodeToolFailed, "%s", web.Clean(err.Error()))
		}
		return p, nil
	}, tools.Safe(), tools.WithTimeout(web.FetchTimeout+5*time.Second), tools.WithRenderer(func(v any) string { return renderPage(v.(web.Page)) }))
}

// renderPage shows the page inside the untrusted-content wrapper.
func renderPage(p web.Page) string {
	attrs := fmt.Sprintf(" url=%s status=\"%d\" format=%q", strconv.Quote(p.FinalURL), p.Status, p.Format)
	if p.Title != "" {
		attrs += " title=" + strconv.Quote(p.Title)
	}
	text := p.Text
	if p.Truncated {
		text += "\n[truncated: the page is longer; ask with a larger max_bytes for more]"
	}
	return web.Untrusted(WebFetchName, attrs, text)
}
