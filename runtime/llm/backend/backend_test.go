package backend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm/models"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestChoosePicksTheProviderAndModel(t *testing.T) {
	tests := []struct {
		name, model, baseURL string
		vars                 map[string]string
		provider, wantModel  string
		errMatch             string
	}{
		{name: "a script model replays the file", model: "script:../../../examples/hello.json",
			provider: "script", wantModel: "script:../../../examples/hello.json"},
		{name: "a missing script file is an error naming it", model: "script:nope.json", errMatch: "nope.json"},
		{name: "a DeepSeek key picks DeepSeek", vars: map[string]string{"DEEPSEEK_API_KEY": "k"},
			provider: "deepseek", wantModel: "deepseek-v4-flash"},
		{name: "a base URL picks that server", model: "llama3", baseURL: "http://127.0.0.1:1/v1",
			provider: "openai", wantModel: "llama3"},
		{name: "no key at all explains what to set", errMatch: "DEEPSEEK_API_KEY"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Choose(Spec{Model: tc.model, BaseURL: tc.baseURL, Getenv: env(tc.vars)})
			p, model := c.Provider, c.Model
			if tc.errMatch != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errMatch) {
					t.Fatalf("err %v, want it to mention %q", err, tc.errMatch)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Name() != tc.provider || model != tc.wantModel {
				t.Fatalf("got %s %q, want %s %q", p.Name(), model, tc.provider, tc.wantModel)
			}
		})
	}
}

func TestChooseNoticesAndWindow(t *testing.T) {
	tests := []struct {
		name    string
		spec    Spec
		window  int
		notices []string // substrings, one per notice
	}{
		{name: "the DeepSeek default is silent and has a 1 M window",
			spec: Spec{Getenv: env(map[string]string{"DEEPSEEK_API_KEY": "k"})}, window: 1 << 20},
		{name: "only OPENAI_API_KEY prints the default model it picked",
			spec:   Spec{Getenv: env(map[string]string{"OPENAI_API_KEY": "k"})},
			window: 128000, notices: []string{"using gpt-4o-mini at https://api.openai.com/v1 with the key from OPENAI_API_KEY"}},
		{name: "an unknown model says what was assumed",
			spec:   Spec{Model: "llama3", BaseURL: "http://127.0.0.1:1/v1", Getenv: env(nil)},
			window: models.DefaultContextWindow, notices: []string{"not in ptc's model table"}},
		{name: "--context-window replaces the window and silences the unknown-model notice",
			spec:   Spec{Model: "llama3", BaseURL: "http://127.0.0.1:1/v1", ContextWindow: 8192, Getenv: env(nil)},
			window: 8192},
		{name: "a retired model says what to use instead",
			spec:   Spec{Model: "deepseek-chat", Getenv: env(map[string]string{"DEEPSEEK_API_KEY": "k"})},
			window: 131072, notices: []string{"retired"}},
		{name: "a script model takes the override",
			spec: Spec{Model: "script:../../../examples/hello.json", ContextWindow: 5000}, window: 5000},
		{name: "a script model listed by its whole name in the table takes that entry",
			spec: Spec{Model: "script:../../../examples/hello.json", Models: scriptTable(t)}, window: 4096},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Choose(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			if c.Info.ContextWindow != tc.window || len(c.Notices) != len(tc.notices) {
				t.Fatalf("window %d notices %q", c.Info.ContextWindow, c.Notices)
			}
			for i, want := range tc.notices {
				if !strings.Contains(c.Notices[i], want) {
					t.Fatalf("notice %q does not mention %q", c.Notices[i], want)
				}
			}
		})
	}
}

func scriptTable(t *testing.T) *models.Table {
	t.Helper()
	p := filepath.Join(t.TempDir(), "models.yaml")
	yaml := "models:\n  \"script:../../../examples/hello.json\":\n    context_window: 4096\n    price: {input: 1, output: 2}\n"
	if err := os.WriteFile(p, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	tbl, err := models.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}
