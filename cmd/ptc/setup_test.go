package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeModel is an OpenAI-compatible server that answers every request
// with one streamed text, and remembers the key and model it was sent.
type fakeModel struct {
	srv         *httptest.Server
	mu          sync.Mutex
	auth, model string
}

func newFakeModel(t *testing.T, answer string) *fakeModel {
	f := &fakeModel{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string `json:"model"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &req)
		f.mu.Lock()
		f.auth, f.model = r.Header.Get("Authorization"), req.Model
		f.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		chunk, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": answer}}}})
		fmt.Fprintf(w, "data: %s\n\n", chunk)
		fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2}}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeModel) seen() (auth, model string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.auth, f.model
}

// ptc with no key on a terminal opens the setup dialog; the base URL and
// key chosen there land in config.yaml (0600), the TUI starts, and the
// next ptc run talks to that server with that key and model.
func TestFirstRunSetupWritesTheConfig(t *testing.T) {
	model := newFakeModel(t, "hello from the configured server")
	root := t.TempDir()
	ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, d := range []string{ws, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=" + filepath.Dir(ptcBin) + ":" + os.Getenv("PATH"), "HOME=" + home, "PTC_HOME=" + home,
		"XDG_CACHE_HOME=" + cacheDir, "TERM=xterm-256color", "LANG=C.UTF-8", "PS1=$ "}
	p := newPane(t, ws, env)
	p.typed(ptcBin)
	p.keys("Enter")
	p.waitText("ptc needs a model server", "Another OpenAI-compatible server", "Provider [1]:")
	p.typed("5")
	p.keys("Enter")
	p.waitText("Base URL")
	p.typed(model.srv.URL + "/v1")
	p.keys("Enter")
	p.waitText("API key (typed without echo)")
	p.typed("sk-test-key-42")
	p.keys("Enter")
	p.waitText("Model:")
	if strings.Contains(p.screen(), "sk-test-key-42") {
		t.Fatalf("the key was echoed:\n%s", p.screen())
	}
	p.typed("fake-model")
	p.keys("Enter")
	p.waitText("ctrl+c cancels, twice exits")
	p.typed("/exit")
	p.keys("Enter")
	p.waitFor("the TUI to end", func(s string) bool { return !strings.Contains(s, "ctrl+c cancels") })
	if out := (&cli{t: t, home: home}).ok("sessions"); !strings.Contains(out, "No sessions yet") && !strings.Contains(out, "no sessions yet") {
		t.Fatalf("a TUI left before its first prompt kept a session:\n%s", out)
	}

	cfg := filepath.Join(home, "config.yaml")
	st, err := os.Stat(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("config.yaml has mode %o, want 600", st.Mode().Perm())
	}
	b, _ := os.ReadFile(cfg)
	for _, want := range []string{"base_url: " + model.srv.URL + "/v1", "api_key: sk-test-key-42", "model: fake-model", "provider: custom"} {
		if !strings.Contains(string(b), want) {
			t.Fatalf("config.yaml lacks %q:\n%s", want, b)
		}
	}

	c := &cli{t: t, home: home}
	out := c.ok("run", "--workspace", ws, "say hello")
	if !strings.Contains(out, "hello from the configured server") {
		t.Fatalf("ptc run did not use the configured server: %q", out)
	}
	if auth, m := model.seen(); auth != "Bearer sk-test-key-42" || m != "fake-model" {
		t.Fatalf("the server saw key %q and model %q", auth, m)
	}
	if got := c.ok("config", "get"); !strings.Contains(got, "api_key: sk-…y-42") || strings.Contains(got, "sk-test-key-42") {
		t.Fatalf("ptc config get shows the key unmasked or not at all:\n%s", got)
	}
	c.ok("config", "set", "model", "other-model")
	if got := c.ok("config", "get", "model"); got != "other-model\n" {
		t.Fatalf("config get model = %q", got)
	}
	if _, errs, code := c.run("config", "set", "base_url", "file:///etc/passwd"); code == 0 || !strings.Contains(errs, "not an http(s) URL") {
		t.Fatalf("a file: base URL was accepted: exit %d %s", code, errs)
	}
	// A flag naming another server does not get the configured key.
	other := newFakeModel(t, "other server")
	c.ok("run", "--workspace", ws, "--base-url", other.srv.URL+"/v1", "--model", "m", "hi")
	if auth, _ := other.seen(); auth != "" {
		t.Fatalf("the configured key went to a server named by --base-url: %q", auth)
	}
}
