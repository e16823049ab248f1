package client

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/tools/toolstest"
	"github.com/ptc-dev/ptc/serve"
)

const token = "0123456789abcdef0123456789abcdef0123456789abcdef"

// server is an in-process ptc serve over a fresh home whose sessions have
// one tool, "guarded", that asks before every call.
func server(t *testing.T) (*Client, string) {
	t.Helper()
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	os.MkdirAll(ws, 0o755)
	home, err := harness.OpenHome(filepath.Join(dir, "home"))
	if err != nil {
		t.Fatal(err)
	}
	guarded := tools.New(tools.Spec{Name: "guarded", Description: "asks first", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, tools.Call, struct{}) (string, error) { return "ran", nil },
		tools.NeedsApproval(func(json.RawMessage) bool { return true }))
	srv, err := serve.New(serve.Config{Home: home, Token: token, Addr: "127.0.0.1:0", Heartbeat: 20 * time.Millisecond,
		Options: harness.Options{Toolset: func(harness.ToolsetConfig) (*tools.Registry, error) {
			return tools.NewRegistry(tools.PresentNative, guarded)
		}}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.CloseClientConnections(); srv.Close(); hs.Close(); home.Close() })
	c, err := New(hs.URL+"/?token="+token, "", "")
	if err != nil {
		t.Fatal(err)
	}
	return c, ws
}

func script(t *testing.T, replies ...map[string]any) string {
	b, _ := json.Marshal(map[string]any{"replies": replies})
	p := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(p, b, 0o644)
	return "script:" + p
}

var guardedCall = map[string]any{"tool_calls": []map[string]any{{"name": "guarded", "arguments": map[string]any{}}}}

func TestNewFindsTheToken(t *testing.T) {
	for _, c := range []struct{ url, token, env, want string }{
		{"http://127.0.0.1:1/?token=fromurl", "given", "env", "fromurl"},
		{"http://127.0.0.1:1", "given", "env", "given"},
		{"http://127.0.0.1:1", "", "env", "env"},
	} {
		t.Setenv("PTC_SERVE_TOKEN", c.env)
		cl, err := New(c.url, c.token, "")
		if err != nil || cl.token != c.want || strings.Contains(cl.URL(), "token") {
			t.Errorf("New(%q, %q) with env %q: token %q, url %q, %v", c.url, c.token, c.env, cl.token, cl.URL(), err)
		}
	}
	if _, err := New("127.0.0.1:4517", "x", ""); err == nil {
		t.Error("a URL without a scheme was taken")
	}
}

func TestTheWatcherAnswersAndALateAnswerIsTold(t *testing.T) {
	c, ws := server(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec, err := c.Create(ctx, serve.Settings{Workspace: ws, Preset: "standard", Model: script(t, guardedCall, map[string]any{"text": "done"})})
	if err != nil {
		t.Fatal(err)
	}
	// Two terminals watch the session; both would allow, one wins.
	var mu sync.Mutex
	var told []string
	tell := func(s string) { mu.Lock(); told = append(told, s); mu.Unlock() }
	answerers := []*toolstest.Answerer{toolstest.Answer(tools.AnswerAllowOnce), toolstest.Answer(tools.AnswerAllowOnce)}
	watchers := []*Watcher{Watch(ctx, c, rec.ID, answerers[0], tell), Watch(ctx, c, rec.ID, answerers[1], tell)}
	if _, err := c.Prompt(ctx, rec.ID, "go"); err != nil {
		t.Fatal(err)
	}
	var seen []session.Event
	err = c.Events(ctx, rec.ID, -1, func(e session.Event) error {
		seen = append(seen, e)
		for _, w := range watchers {
			w.Observe(e)
		}
		if e.Type == session.TypeTurnEnd {
			return errStop
		}
		return nil
	})
	if err != errStop {
		t.Fatal(err)
	}
	for i, e := range seen {
		if e.Seq != int64(i) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
	}
	asked := len(answerers[0].Asked()) + len(answerers[1].Asked())
	if asked < 1 {
		t.Fatal("nobody was asked")
	}
	deadline := time.Now().Add(time.Minute)
	for asked == 2 {
		mu.Lock()
		n := len(told)
		mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("both terminals answered and neither was told it lost: %v", told)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if asked == 2 && !strings.Contains(told[0], "another client answered first (allow-once)") {
		t.Fatalf("told %q", told)
	}
}

var errStop = &Error{Code: "stop"}

func TestEventsResumeAfterAGivenSeq(t *testing.T) {
	c, ws := server(t)
	ctx := context.Background()
	rec, _ := c.Create(ctx, serve.Settings{Workspace: ws, Preset: "standard", Model: script(t, map[string]any{"text": "hi"})})
	r, err := Attach(ctx, c, rec.ID, toolstest.Answer(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out, err := r.Run(ctx, "hello")
	if err != nil || out.Reason != session.ReasonCompleted || out.Text != "hi" {
		t.Fatalf("Run = %+v, %v", out, err)
	}
	all := r.Events()
	var got []int64
	err = c.Events(ctx, rec.ID, 2, func(e session.Event) error {
		got = append(got, e.Seq)
		if e.Seq == all[len(all)-1].Seq {
			return errStop
		}
		return nil
	})
	if err != errStop || got[0] != 3 || len(got) != len(all)-3 {
		t.Fatalf("resumed from 2: %v (%v)", got, err)
	}
	if r.ResumeHint() != "ptc attach "+rec.ID+" --serve "+c.URL() || r.Settings().Workspace != ws {
		t.Fatalf("hint %q, settings %+v", r.ResumeHint(), r.Settings())
	}
}
