package models

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
)

func TestLookup(t *testing.T) {
	tbl := Builtin()
	tests := []struct {
		name, id   string
		known      bool
		window     int
		provider   string
		noticeHas  string
		reasoning  string
		wantPriced bool
	}{
		{name: "the default DeepSeek model has a 1 M window", id: "deepseek-v4-flash", known: true, window: 1048576,
			provider: "deepseek", reasoning: ReasoningContent, wantPriced: true},
		{name: "deepseek-v4-pro is listed", id: "deepseek-v4-pro", known: true, window: 1048576, provider: "deepseek",
			reasoning: ReasoningContent, wantPriced: true},
		{name: "a retired DeepSeek name is known and says what to use instead", id: "deepseek-chat", known: true,
			window: 131072, provider: "deepseek", noticeHas: "deepseek-v4-flash", reasoning: ReasoningContent, wantPriced: true},
		{name: "a dated OpenAI snapshot takes its family's entry", id: "gpt-4o-2024-08-06", known: true, window: 128000,
			provider: "openai", wantPriced: true},
		{name: "the longest listed prefix wins", id: "gpt-4o-mini-2024-07-18", known: true, window: 128000, provider: "openai", wantPriced: true},
		{name: "an OpenRouter-style provider prefix is stripped", id: "openai/gpt-4o-mini", known: true, window: 128000,
			provider: "openai", wantPriced: true},
		{name: "a gateway's DeepSeek model leaves the reasoning field to the gateway", id: "deepseek/deepseek-v4-flash", known: true,
			window: 1 << 20, provider: "deepseek", wantPriced: true},
		{name: "a listed id followed by a word is not that model", id: "gpt-4o-audio", window: DefaultContextWindow,
			noticeHas: "not in ptc's model table"},
		{name: "an unknown model gets the default window and a notice", id: "my-local-llama", window: DefaultContextWindow,
			noticeHas: "--context-window"},
		{name: "a model listed for its window only has no price", id: "llama-3.3-70b-versatile", known: true, window: 131072, provider: "groq"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := tbl.Lookup(tc.id)
			if m.ID != tc.id || m.Known != tc.known || m.ContextWindow != tc.window || m.Provider != tc.provider ||
				m.ReasoningField != tc.reasoning || m.Priced() != tc.wantPriced {
				t.Fatalf("Lookup(%q) = %+v", tc.id, m)
			}
			if (tc.noticeHas == "") != (m.Notice == "") || !strings.Contains(m.Notice, tc.noticeHas) {
				t.Fatalf("notice %q, want it to mention %q", m.Notice, tc.noticeHas)
			}
		})
	}
}

func TestFlashFactsMatchTheIssue(t *testing.T) {
	m := Builtin().Lookup("deepseek-v4-flash")
	if m.MaxOutput != 384*1024 || !m.Thinks || *m.Price != (Price{Input: 0.14, CacheHit: 0.014, Output: 0.28}) {
		t.Fatalf("deepseek-v4-flash = %+v price %+v", m, *m.Price)
	}
}

func TestCost(t *testing.T) {
	flash := Builtin().Lookup("deepseek-v4-flash")
	tests := []struct {
		name string
		m    Model
		u    llm.Usage
		want float64
	}{
		{"a million uncached input tokens cost the input rate", flash, llm.Usage{InputTokens: 1_000_000}, 0.14},
		{"cache hits are priced at the cache-hit rate", flash, llm.Usage{InputTokens: 1_000_000, CacheHitTokens: 1_000_000}, 0.014},
		{"a mix prices each part at its rate", flash, llm.Usage{InputTokens: 374, CacheHitTokens: 256, OutputTokens: 61},
			(118*0.14 + 256*0.014 + 61*0.28) / 1e6},
		{"more cache hits than input are capped at the input", flash, llm.Usage{InputTokens: 10, CacheHitTokens: 50}, 10 * 0.014 / 1e6},
		{"negative counts cost nothing", flash, llm.Usage{InputTokens: -5, OutputTokens: -1}, 0},
		{"an unpriced model costs nothing", Builtin().Lookup("nope"), llm.Usage{InputTokens: 1000, OutputTokens: 1000}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.m.Cost(tc.u); fmt.Sprintf("%.9f", got) != fmt.Sprintf("%.9f", tc.want) {
				t.Fatalf("Cost(%+v) = %v, want %v", tc.u, got, tc.want)
			}
		})
	}
}

func TestWithContextWindow(t *testing.T) {
	unknown := Builtin().Lookup("local")
	if m := unknown.WithContextWindow(8192); m.ContextWindow != 8192 || m.Notice != "" {
		t.Fatalf("override of an unknown model: %+v", m)
	}
	if m := unknown.WithContextWindow(0); m.ContextWindow != DefaultContextWindow || m.Notice == "" {
		t.Fatalf("zero must keep the model as it is: %+v", m)
	}
	retired := Builtin().Lookup("deepseek-chat").WithContextWindow(1000)
	if retired.Notice == "" {
		t.Fatal("a window override must not hide a retirement notice")
	}
}

func writeTable(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoad(t *testing.T) {
	t.Run("a missing file gives the built-in table", func(t *testing.T) {
		tbl, err := LoadHome(t.TempDir())
		if err != nil || !tbl.Lookup("deepseek-v4-flash").Known {
			t.Fatalf("%v %+v", err, tbl)
		}
	})
	t.Run("an empty file gives the built-in table", func(t *testing.T) {
		if _, err := Load(writeTable(t, "")); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("an override changes only the fields it names", func(t *testing.T) {
		tbl, err := Load(writeTable(t, "models:\n  deepseek-v4-flash:\n    context_window: 500000\n    price: {output: 0.5}\n"))
		if err != nil {
			t.Fatal(err)
		}
		m := tbl.Lookup("deepseek-v4-flash")
		if m.ContextWindow != 500000 || m.MaxOutput != 384*1024 || *m.Price != (Price{Input: 0.14, CacheHit: 0.014, Output: 0.5}) {
			t.Fatalf("%+v %+v", m, *m.Price)
		}
		if b := Builtin().Lookup("deepseek-v4-flash"); b.ContextWindow != 1<<20 || b.Price.Output != 0.28 {
			t.Fatalf("the override leaked into the built-in table: %+v", b)
		}
	})
	t.Run("a new model is added with defaults for what it omits", func(t *testing.T) {
		tbl, err := Load(writeTable(t, "models:\n  my-llama:\n    reasoning_field: reasoning\n    input: 0.2\n    output: 0.6\n"))
		if err != nil {
			t.Fatal(err)
		}
		m := tbl.Lookup("my-llama")
		if !m.Known || m.Notice != "" || m.ContextWindow != DefaultContextWindow || m.ReasoningField != Reasoning ||
			*m.Price != (Price{Input: 0.2, Output: 0.6}) {
			t.Fatalf("%+v", m)
		}
	})
	for _, tc := range []struct{ name, text, want string }{
		{"a misspelt field is an error", "models:\n  x:\n    context_windw: 5\n", "context_windw"},
		{"a zero window is an error", "models:\n  x:\n    context_window: 0\n", "context_window must be positive"},
		{"a negative price is an error", "models:\n  x:\n    price: {input: -1}\n", "must not be negative"},
		{"an unknown reasoning field is an error", "models:\n  x:\n    reasoning_field: thoughts\n", "reasoning_field"},
		{"YAML that is not a table is an error", "models: [1, 2]\n", "models.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(writeTable(t, tc.text))
			if err == nil || !strings.Contains(err.Error(), strings.TrimSuffix(tc.want, " be positive")) || !strings.Contains(err.Error(), FileName) {
				t.Fatalf("err %v, want it to name %s and mention %q", err, FileName, tc.want)
			}
		})
	}
	t.Run("an unreadable file is an error", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), FileName)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(dir); err == nil {
			t.Fatal("a directory named models.yaml must be an error")
		}
	})
}

func ExampleTable_Lookup() {
	m := Builtin().Lookup("deepseek-v4-flash")
	cost := m.Cost(llm.Usage{InputTokens: 2_000_000, CacheHitTokens: 1_000_000, OutputTokens: 1_000_000})
	fmt.Println(m.ContextWindow, m.Provider, cost)
	// Output: 1048576 deepseek 0.434
}

func TestListIsSortedAndComplete(t *testing.T) {
	list := Builtin().List()
	if len(list) != len(builtin) {
		t.Fatalf("%d models listed, %d built in", len(list), len(builtin))
	}
	for i := 1; i < len(list); i++ {
		a, b := list[i-1], list[i]
		if a.Provider > b.Provider || (a.Provider == b.Provider && a.ID >= b.ID) {
			t.Fatalf("%s/%s before %s/%s", a.Provider, a.ID, b.Provider, b.ID)
		}
	}
}
