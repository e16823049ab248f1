package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/tools"
)

const testToken = "0123456789abcdef0123456789abcdef0123456789abcdef"

// fixture is an in-process server over a fresh home.
type fixture struct {
	t    testing.TB
	srv  *Server
	http *httptest.Server
	ws   string
	home *harness.Home
	// options are the sessions' harness options (the guarded toolset).
	options harness.Options
}

// guardedTool needs approval for every call; it appends its text to
// guarded.txt in the workspace.
func guardedTool(ws string) tools.Tool {
	spec := tools.Spec{Name: "guarded", Description: "a tool that asks first",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}
	return tools.New(spec, func(_ context.Context, _ tools.Call, in struct {
		Text string `json:"text"`
	}) (string, error) {
		f, err := os.OpenFile(filepath.Join(ws, "guarded.txt"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return "", err
		}
		defer f.Close()
		_, err = f.WriteString(in.Text + "\n")
		return "ran " + in.Text, err
	}, tools.NeedsApproval(func(json.RawMessage) bool { return true }))
}

// quickTool answers at once and asks nobody (load for the benchmarks).
func quickTool() tools.Tool {
	spec := tools.Spec{Name: "quick", Description: "answers at once", InputSchema: json.RawMessage(`{"type":"object"}`)}
	return tools.New(spec, func(context.Context, tools.Call, struct{}) (string, error) { return "ok", nil },
		tools.SafeWhen(func(json.RawMessage) bool { return true }))
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	home, err := harness.OpenHome(filepath.Join(dir, "home"))
	if err != nil {
		t.Fatal(err)
	}
	opts := harness.Options{Toolset: func(harness.ToolsetConfig) (*tools.Registry, error) {
		return tools.NewRegistry(tools.PresentNative, guardedTool(ws), quickTool())
	}}
	srv, err := New(Config{Home: home, Token: testToken, Addr: "127.0.0.1:0", Heartbeat: 50 * time.Millisecond, Options: opts})
	f := &fixture{t: t, srv: srv, ws: ws, home: home, options: opts}
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	f.http = hs
	t.Cleanup(func() {
		hs.CloseClientConnections()
		srv.Close()
		hs.Close()
		home.Close()
	})
	return f
}

// script writes a scripted model and returns its model name.
func (f *fixture) script(replies ...map[string]any) string {
	f.t.Helper()
	b, _ := json.Marshal(map[string]any{"replies": replies})
	p := filepath.Join(f.t.TempDir(), "script.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		f.t.Fatal(err)
	}
	return "script:" + p
}

// do sends a request with the token (unless hdr says otherwise) and
// returns the status and body.
func (f *fixture) do(method, path string, body any, hdr ...string) (int, []byte) {
	f.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, f.http.URL+path, rd)
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
		} else if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// must does a request that must answer want, and decodes its body into v.
func (f *fixture) must(want int, method, path string, body, v any) {
	f.t.Helper()
	code, out := f.do(method, path, body)
	if code != want {
		f.t.Fatalf("%s %s = %d, want %d: %s", method, path, code, want, out)
	}
	if v != nil {
		if err := json.Unmarshal(out, v); err != nil {
			f.t.Fatalf("%s %s: %v: %s", method, path, err, out)
		}
	}
}

func (f *fixture) create(model string) Record {
	f.t.Helper()
	var r Record
	f.must(http.StatusCreated, "POST", "/v1/sessions", map[string]any{"workspace": f.ws, "model": model, "preset": "standard"}, &r)
	return r
}

// frame is one Server-Sent Events frame.
type frame struct {
	id    int64
	event string
	data  string
}

// stream reads a session's event stream from after (-1: the start, or
// "" to send nothing) until stop says so for a frame, and returns the
// frames with an id.
func (f *fixture) stream(id string, lastEventID string, stop func(frame) bool) []frame {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.http.URL+"/v1/sessions/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		f.t.Fatalf("events: %d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	return readFrames(f.t, resp.Body, stop)
}

// openEvents opens the event stream of session id after lastEventID and
// returns its body once the server answered (closed at the test's end).
func (f *fixture) openEvents(id, lastEventID string) io.Reader {
	f.t.Helper()
	req, _ := http.NewRequest("GET", f.http.URL+"/v1/sessions/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Last-Event-ID", lastEventID)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		f.t.Fatalf("events: %d %s", resp.StatusCode, b)
	}
	return resp.Body
}

func readFrames(t testing.TB, r io.Reader, stop func(frame) bool) []frame {
	var out []frame
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	cur := frame{id: -1}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.event != "" {
				if cur.id >= 0 {
					out = append(out, cur)
				}
				if stop(cur) {
					return out
				}
			}
			cur = frame{id: -1}
		case strings.HasPrefix(line, "id: "):
			n, err := strconv.ParseInt(line[4:], 10, 64)
			if err != nil {
				t.Fatalf("bad id line %q", line)
			}
			cur.id = n
		case strings.HasPrefix(line, "event: "):
			cur.event = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.data += line[6:]
		}
	}
	t.Fatalf("the stream ended before it was done (%d frames): %v", len(out), sc.Err())
	return nil
}

func until(event string) func(frame) bool {
	return func(fr frame) bool { return fr.event == event }
}

// waitFor polls cond until it holds.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(120 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
