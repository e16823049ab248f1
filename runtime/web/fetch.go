package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"golang.org/x/net/html/charset"
)

// Fetch limits.
const (
	// MaxRedirects is how many redirects one fetch follows.
	MaxRedirects = 5
	// FetchTimeout bounds one fetch, redirects and body included.
	FetchTimeout = 30 * time.Second
	// MaxDownload is how much of a body is read at most; a longer body
	// is cut there (and the page marked truncated).
	MaxDownload = 8 << 20
)

// Page is one fetched document as the model gets it.
type Page struct {
	// URL is the URL asked for, FinalURL where redirects ended.
	URL      string `json:"url"`
	FinalURL string `json:"finalUrl"`
	Status   int    `json:"status"`
	// ContentType is the media type the server gave (or sniffed);
	// Format is how Text was made: "markdown" (from HTML) or "text".
	ContentType string `json:"contentType"`
	Format      string `json:"format"`
	Title       string `json:"title,omitempty"`
	Text        string `json:"text"`
	// Bytes is the size of the body read; Truncated says the body or
	// the text was cut at a cap.
	Bytes     int  `json:"bytes"`
	Truncated bool `json:"truncated,omitempty"`
}

// Fetcher fetches pages under the network policy of its Config.
type Fetcher struct {
	client *http.Client
}

// NewFetcher returns a Fetcher for c: public addresses only unless
// c.AllowPrivate, no proxy, redirects capped at MaxRedirects and to
// http(s) only.
func NewFetcher(c Config) *Fetcher {
	if c.AllowPrivate {
		return newFetcher(nil)
	}
	return newFetcher(guard)
}

// newFetcher builds a Fetcher whose dialer checks every connection with
// control (nil: none).
func newFetcher(control func(network, address string, c syscall.RawConn) error) *Fetcher {
	d := &net.Dialer{Timeout: 10 * time.Second, Control: control}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 20 * time.Second,
		MaxIdleConns:          4,
		IdleConnTimeout:       30 * time.Second,
	}
	return &Fetcher{client: &http.Client{Transport: tr, Timeout: FetchTimeout, CheckRedirect: checkRedirect}}
}

func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > MaxRedirects {
		return fmt.Errorf("stopped after %d redirects", MaxRedirects)
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return fmt.Errorf("refused a redirect to %s: only http and https are fetched", req.URL.Redacted())
	}
	return nil
}

// ParseURL accepts an absolute http or https URL with a host and no
// user information (a URL with a password would log it).
func ParseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("not a URL: %v", err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("only http and https URLs are fetched, not %q", u.Scheme)
	case u.Host == "":
		return nil, errors.New("the URL has no host")
	case u.User != nil:
		return nil, errors.New("the URL carries user information; credentials are never sent")
	}
	u.Fragment = ""
	return u, nil
}

// Fetch GETs raw and returns its text, at most maxText bytes of it.
func (f *Fetcher) Fetch(ctx context.Context, raw string, maxText int) (Page, error) {
	u, err := ParseURL(raw)
	if err != nil {
		return Page{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Page{}, err
	}
	req.Header.Set("User-Agent", "ptc-web-fetch/1 (coding agent)")
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/plain,text/markdown,application/json;q=0.9,*/*;q=0.1")
	resp, err := f.client.Do(req)
	if err != nil {
		return Page{}, explain(err)
	}
	defer resp.Body.Close()
	p := Page{URL: u.String(), FinalURL: resp.Request.URL.String(), Status: resp.StatusCode}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxDownload+1))
	if err != nil {
		return p, fmt.Errorf("reading %s: %v", p.FinalURL, explain(err))
	}
	if len(body) > MaxDownload {
		body, p.Truncated = body[:MaxDownload], true
	}
	p.Bytes = len(body)
	if resp.StatusCode >= 400 {
		return p, fmt.Errorf("%s answered %s", p.FinalURL, resp.Status)
	}
	return p, p.convert(body, resp.Header.Get("Content-Type"), maxText)
}

// explain unwraps a url.Error to the policy refusal when there is one.
func explain(err error) error {
	var pe *PrivateError
	if errors.As(err, &pe) {
		return pe
	}
	return err
}

// convert turns body into p.Text by its media type.
func (p *Page) convert(body []byte, header string, maxText int) error {
	mt, _, err := mime.ParseMediaType(header)
	if err != nil || mt == "" || mt == "application/octet-stream" {
		header = http.DetectContentType(body)
		mt, _, _ = mime.ParseMediaType(header)
	}
	p.ContentType = mt
	if !textual(mt) || binary(body) {
		return fmt.Errorf("%s is %s, not text: web_fetch returns only HTML, text and JSON", p.FinalURL, mt)
	}
	if r, err := charset.NewReader(strings.NewReader(string(body)), header); err == nil {
		if b, err := io.ReadAll(r); err == nil {
			body = b
		}
	}
	text := string(body)
	p.Format = "text"
	if mt == "text/html" || mt == "application/xhtml+xml" {
		p.Format = "markdown"
		p.Title, text, err = toMarkdown(text, p.FinalURL)
		if err != nil {
			return fmt.Errorf("converting %s to markdown: %v", p.FinalURL, err)
		}
	}
	p.Title = Clean(p.Title)
	text = Clean(text)
	if len(text) > maxText {
		p.Truncated = true
	}
	p.Text = clipText(text, maxText)
	return nil
}

// textual reports the media types web_fetch returns as text.
func textual(mt string) bool {
	switch {
	case strings.HasPrefix(mt, "text/"):
		return true
	case mt == "application/json" || strings.HasSuffix(mt, "+json"),
		mt == "application/xml" || strings.HasSuffix(mt, "+xml"),
		mt == "application/javascript", mt == "application/x-yaml", mt == "application/yaml":
		return true
	}
	return false
}

// binary reports a body with NUL bytes in its first 8 KiB.
func binary(b []byte) bool {
	return strings.IndexByte(string(b[:min(len(b), 8192)]), 0) >= 0
}
