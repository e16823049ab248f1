// Package client talks to a ptc serve server (package serve) over its /v1
// API: the sessions, their event streams and their pending requests. ptc
// attach --serve and ptc --serve use it; so do the tests.
package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/serve"
)

// Client is one server, reached with its token.
type Client struct {
	base  *url.URL
	token string
	http  *http.Client
}

// New returns a client of the server at rawURL. The token is the URL's
// ?token=… when it has one (the URL ptc serve prints), else token, else
// $PTC_SERVE_TOKEN, else the serve.token of the local home (a server on
// this machine).
func New(rawURL, token, home string) (*Client, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--serve wants the server's URL, like http://127.0.0.1:4517 (got %q)", rawURL)
	}
	if t := u.Query().Get("token"); t != "" {
		token = t
	}
	if token == "" {
		token = os.Getenv("PTC_SERVE_TOKEN")
	}
	if token == "" && home != "" {
		b, err := os.ReadFile(home + "/" + serve.TokenFile)
		if err != nil {
			return nil, fmt.Errorf("no token for %s: give the URL ptc serve printed (with ?token=…), or set PTC_SERVE_TOKEN (%v)", u.Host, err)
		}
		token = strings.TrimSpace(string(b))
	}
	u.RawQuery, u.Fragment, u.Path = "", "", ""
	return &Client{base: u, token: token, http: &http.Client{}}, nil
}

// URL is the server's address, without the token.
func (c *Client) URL() string { return c.base.String() }

// Error is an error answer of the server.
type Error struct {
	Status  int
	Code    string
	Message string
	// Answer is the answer that won, for Code "already_answered".
	Answer string
}

func (e *Error) Error() string {
	if e.Message != "" {
		return e.Message
	}
	return fmt.Sprintf("the server answered %d", e.Status)
}

func (c *Client) request(ctx context.Context, method, path string, body any) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base.JoinPath(path).String(), rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// do sends a request and decodes a 2xx answer into out (when not nil).
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	req, err := c.request(ctx, method, path, body)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("ptc serve at %s: %w", c.base.Host, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		var e struct {
			Error, Message, Answer string
		}
		_ = json.Unmarshal(data, &e)
		return &Error{Status: resp.StatusCode, Code: e.Error, Message: e.Message, Answer: e.Answer}
	}
	if out == nil || len(data) == 0 {
		return nil
	}
	return json.Unmarshal(data, out)
}

func sessionPath(id string) string { return "/v1/sessions/" + url.PathEscape(id) }

// Create starts a session with settings.
func (c *Client) Create(ctx context.Context, s serve.Settings) (serve.Record, error) {
	var r serve.Record
	err := c.do(ctx, "POST", "/v1/sessions", s, &r)
	return r, err
}

// List returns the sessions (of workspace, when not "").
func (c *Client) List(ctx context.Context, workspace string) ([]serve.Record, error) {
	var out []serve.Record
	path := "/v1/sessions"
	if workspace != "" {
		path += "?workspace=" + url.QueryEscape(workspace)
	}
	err := c.do(ctx, "GET", path, nil, &out)
	return out, err
}

// Get returns one session's record.
func (c *Client) Get(ctx context.Context, id string) (serve.Record, error) {
	var r serve.Record
	err := c.do(ctx, "GET", sessionPath(id), nil, &r)
	return r, err
}

// Prompt sends text; queued is true when it waits for the running turn.
func (c *Client) Prompt(ctx context.Context, id, text string) (queued bool, err error) {
	var out struct{ Queued bool }
	err = c.do(ctx, "POST", sessionPath(id)+"/prompt", map[string]string{"text": text}, &out)
	return out.Queued, err
}

// Cancel cancels the running turn and returns the queued prompts it
// dropped.
func (c *Client) Cancel(ctx context.Context, id string) (cancelled bool, dropped []string, err error) {
	var out struct {
		Cancelled bool
		Dropped   []string
	}
	err = c.do(ctx, "POST", sessionPath(id)+"/cancel", nil, &out)
	return out.Cancelled, out.Dropped, err
}

// Decide answers a pending approval: "once", "session" or "deny".
func (c *Client) Decide(ctx context.Context, id, pid, decision string) error {
	return c.do(ctx, "POST", sessionPath(id)+"/pending/"+url.PathEscape(pid), map[string]string{"decision": decision}, nil)
}

// Answer answers a pending question (or gives a plan feedback).
func (c *Client) Answer(ctx context.Context, id, pid, answer string) error {
	return c.do(ctx, "POST", sessionPath(id)+"/pending/"+url.PathEscape(pid), map[string]string{"answer": answer}, nil)
}

// Change changes settings between turns (fields as in the API: preset,
// model, sandbox, approval, plan_mode…).
func (c *Client) Change(ctx context.Context, id string, fields map[string]any) (serve.Record, error) {
	var r serve.Record
	err := c.do(ctx, "POST", sessionPath(id)+"/settings", fields, &r)
	return r, err
}

// Compact summarises the session now.
func (c *Client) Compact(ctx context.Context, id string) (passes, before, after int, failure string, err error) {
	var out struct {
		Passes       int    `json:"passes"`
		TokensBefore int    `json:"tokens_before"`
		TokensAfter  int    `json:"tokens_after"`
		Failure      string `json:"failure"`
		Skipped      string `json:"skipped"`
	}
	err = c.do(ctx, "POST", sessionPath(id)+"/compact", nil, &out)
	if out.Skipped != "" && out.Failure == "" {
		out.Failure = out.Skipped
	}
	return out.Passes, out.TokensBefore, out.TokensAfter, out.Failure, err
}

// Models lists the server's model table.
func (c *Client) Models(ctx context.Context) ([]serve.ModelInfo, error) {
	var out []serve.ModelInfo
	err := c.do(ctx, "GET", "/v1/models", nil, &out)
	return out, err
}

// ErrEnded is returned by Events when the server ended the stream for
// good (the session was deleted).
var ErrEnded = errors.New("the session's stream ended")

// Events calls fn with every event of session id after seq after (-1:
// from the first), then with live ones, until ctx ends, fn fails or the
// session is deleted. A dropped connection (a server restart) is
// reconnected with Last-Event-ID, so fn sees every event exactly once,
// in order.
func (c *Client) Events(ctx context.Context, id string, after int64, fn func(session.Event) error) error {
	backoff := 100 * time.Millisecond
	for {
		got, err := c.stream(ctx, id, after, func(e session.Event) error {
			if e.Seq <= after {
				return nil
			}
			after = e.Seq
			return fn(e)
		})
		if got {
			backoff = 100 * time.Millisecond
		}
		var apiErr *Error
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, ErrEnded), errors.As(err, &apiErr) && apiErr.Status != http.StatusServiceUnavailable:
			return err
		case err != nil && !errors.Is(err, errDropped):
			var fnErr fnError
			if errors.As(err, &fnErr) {
				return fnErr.error
			}
		}
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return ctx.Err()
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

var errDropped = errors.New("the stream dropped")

type fnError struct{ error }

// stream reads one connection's worth of the stream; got reports that
// it delivered something.
func (c *Client) stream(ctx context.Context, id string, after int64, fn func(session.Event) error) (got bool, err error) {
	req, err := c.request(ctx, "GET", sessionPath(id)+"/events", nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Accept", "text/event-stream")
	if after >= 0 {
		req.Header.Set("Last-Event-ID", strconv.FormatInt(after, 10))
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return false, errDropped
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e struct{ Error, Message string }
		_ = json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&e)
		return false, &Error{Status: resp.StatusCode, Code: e.Error, Message: e.Message}
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	var event, data string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if event == "end" {
				if strings.Contains(data, `"deleted"`) {
					return got, ErrEnded
				}
				return got, errDropped
			}
			if data != "" {
				var e session.Event
				if err := json.Unmarshal([]byte(data), &e); err != nil {
					return got, fmt.Errorf("the server sent an event that is not JSON: %w", err)
				}
				got = true
				if err := fn(e); err != nil {
					return got, fnError{err}
				}
			}
			event, data = "", ""
		case strings.HasPrefix(line, "event: "):
			event = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			data += line[len("data: "):]
		}
	}
	return got, errDropped
}
