package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
	"github.com/ptc-dev/ptc/runtime/llm/models"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

func TestADeepSeekKeyAsksForDeepSeekV4FlashAndPricesTheAnswer(t *testing.T) {
	turn := llmtest.Turn{Text: "hello", Usage: &llmtest.Usage{Prompt: 1000, Completion: 100, CacheHit: 600}}
	srv := llmtest.NewServer(t, turn, turn)
	c := newCLI(t, "DEEPSEEK_API_KEY=k")
	out, errs, code := c.run("run", "--base-url", srv.URL, "--output", "json", "hi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	req, err := srv.Requests()[0].Decode()
	if err != nil || req.Model != "deepseek-v4-flash" {
		t.Fatalf("asked for %q (%v)", req.Model, err)
	}
	if auth := srv.Requests()[0].Header.Get("Authorization"); auth != "" {
		t.Fatalf("the DeepSeek key went to another host: %q", auth)
	}
	if !strings.Contains(errs, "using deepseek-v4-flash at "+srv.URL) {
		t.Fatalf("the chosen default model is not printed: %q", errs)
	}
	want := (400*0.14 + 600*0.014 + 100*0.28) / 1e6
	var final struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &final); err != nil {
		t.Fatal(err)
	}
	msgs := sessiontest.OfType(c.show(final.SessionID).Events, session.TypeAssistantMessage)
	if got := sessiontest.Decode[session.AssistantMessage](t, msgs[0]).Usage.CostUSD; got < want-1e-9 || got > want+1e-9 {
		t.Fatalf("session show: cost_usd %v, want %v", got, want)
	}
	if !strings.Contains(out, `"cost_usd":`) {
		t.Fatalf("--output json usage carries no cost_usd: %s", out)
	}
	if text := c.ok("session", "show", final.SessionID); !strings.Contains(text, "usage: 1000 input (600 cache hit), 100 output, $0.000092") {
		t.Fatalf("session show does not end with the priced usage:\n%s", text)
	}
	stream := c.ok("run", "--base-url", srv.URL, "--output", "stream-json", "hi")
	priced := 0
	for _, line := range strings.Split(stream, "\n") {
		if strings.Contains(line, `"type":"assistant/message"`) && strings.Contains(line, `"cost_usd":`) {
			priced++
		}
	}
	if priced != 1 {
		t.Fatalf("stream-json has %d priced assistant/message lines, want 1:\n%s", priced, stream)
	}
}

func TestOnlyAnOpenAIKeyPrintsTheModelItPicks(t *testing.T) {
	// The request goes to a proxy on a closed loopback port, so nothing
	// leaves the machine: the run fails to connect after the note.
	c := newCLI(t, "OPENAI_API_KEY=k", "HTTPS_PROXY=http://127.0.0.1:1", "PTC_TEST_RETRY_DELAY=1ms")
	_, errs, _ := c.run("run", "--output", "json", "hi")
	if !strings.Contains(errs, "no --model given: using gpt-4o-mini at https://api.openai.com/v1 with the key from OPENAI_API_KEY") {
		t.Fatalf("stderr %q", errs)
	}
}

func TestModelsYAMLAndContextWindowOverrideTheTable(t *testing.T) {
	c := newCLI(t)
	yaml := "models:\n  deepseek-v4-flash:\n    context_window: 500000\n  my-llama:\n    context_window: 65536\n"
	if err := os.WriteFile(filepath.Join(c.home, models.FileName), []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	var list []models.Model
	if err := json.Unmarshal([]byte(c.ok("models", "--output", "json")), &list); err != nil {
		t.Fatal(err)
	}
	windows := map[string]int{}
	for _, m := range list {
		windows[m.ID] = m.ContextWindow
	}
	if windows["deepseek-v4-flash"] != 500000 || windows["my-llama"] != 65536 || windows["deepseek-v4-pro"] != 1<<20 {
		t.Fatalf("windows %v", windows)
	}

	srv := llmtest.NewServer(t, llmtest.Turn{Text: "a"}, llmtest.Turn{Text: "b"}, llmtest.Turn{Text: "c"})
	_, errs, code := c.run("run", "--base-url", srv.URL, "--model", "unlisted-model", "hi")
	if code != 0 || !strings.Contains(errs, "not in ptc's model table: assuming a 32768-token context window") {
		t.Fatalf("an unknown model must say what is assumed, once: exit %d, %q", code, errs)
	}
	out, errs, code := c.run("run", "--base-url", srv.URL, "--model", "unlisted-model", "--context-window", "8192", "--output", "json", "hi")
	if code != 0 || strings.Contains(errs, "not in ptc's model table") {
		t.Fatalf("--context-window must stand in for the table: exit %d, %q", code, errs)
	}
	var final struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &final); err != nil {
		t.Fatal(err)
	}
	if h := c.show(final.SessionID).Session; h.Settings.ContextWindow != 8192 {
		t.Fatalf("the session header records context window %d", h.Settings.ContextWindow)
	}
	_, errs, code = c.run("run", "--base-url", srv.URL, "--model", "my-llama", "hi")
	if code != 0 || strings.Contains(errs, "not in ptc's model table") {
		t.Fatalf("a model added in models.yaml is known: exit %d, %q", code, errs)
	}
	if err := os.WriteFile(filepath.Join(c.home, models.FileName), []byte("models:\n  x:\n    context_windw: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := c.run("models"); code == 0 || !strings.Contains(errs, "context_windw") {
		t.Fatalf("a misspelt models.yaml must be refused naming the field: exit %d, %q", code, errs)
	}
}

func TestModelsMarksRetiredModels(t *testing.T) {
	c := newCLI(t)
	out := c.ok("models")
	for _, l := range strings.Split(out, "\n") {
		retired := strings.Contains(l, "(retired 2026-07-24)")
		old := strings.HasPrefix(l, "deepseek-chat ") || strings.HasPrefix(l, "deepseek-reasoner ")
		if retired != old {
			t.Fatalf("line %q: retired mark %v, want %v", l, retired, old)
		}
	}
	var list []models.Model
	if err := json.Unmarshal([]byte(c.ok("models", "--output", "json")), &list); err != nil {
		t.Fatal(err)
	}
	for _, m := range list {
		if (m.Retired != "") != (m.ID == "deepseek-chat" || m.ID == "deepseek-reasoner") {
			t.Fatalf("%s retired %q", m.ID, m.Retired)
		}
	}
}
