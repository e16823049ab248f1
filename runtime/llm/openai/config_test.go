package openai

import (
	"strings"
	"testing"
	"time"
)

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name     string
		baseURL  string
		model    string
		env      map[string]string
		want     Config
		errMatch string
	}{
		{name: "a DeepSeek key alone picks DeepSeek and deepseek-v4-flash",
			env:  map[string]string{"DEEPSEEK_API_KEY": "ds"},
			want: Config{Name: "deepseek", BaseURL: DeepSeekBaseURL, Model: "deepseek-v4-flash", APIKey: "ds", KeyEnv: "DEEPSEEK_API_KEY"}},
		{name: "a model flag overrides the DeepSeek default",
			model: "deepseek-reasoner", env: map[string]string{"DEEPSEEK_API_KEY": "ds"},
			want: Config{Name: "deepseek", BaseURL: DeepSeekBaseURL, Model: "deepseek-reasoner", APIKey: "ds", KeyEnv: "DEEPSEEK_API_KEY"}},
		{name: "an OpenAI key alone picks OpenAI",
			env:  map[string]string{"OPENAI_API_KEY": "oa"},
			want: Config{Name: "openai", BaseURL: OpenAIBaseURL, Model: OpenAIModel, APIKey: "oa", KeyEnv: "OPENAI_API_KEY"}},
		{name: "OPENAI_BASE_URL with a key picks that server",
			model: "qwen", env: map[string]string{"OPENAI_API_KEY": "oa", "OPENAI_BASE_URL": "https://openrouter.ai/api/v1/"},
			want: Config{Name: "openai", BaseURL: "https://openrouter.ai/api/v1", Model: "qwen", APIKey: "oa", KeyEnv: "OPENAI_API_KEY"}},
		{name: "the base-url flag beats OPENAI_BASE_URL",
			baseURL: "http://127.0.0.1:9/v1", model: "m", env: map[string]string{"OPENAI_BASE_URL": "http://other/v1"},
			want: Config{Name: "openai", BaseURL: "http://127.0.0.1:9/v1", Model: "m", KeyEnv: "OPENAI_API_KEY"}},
		{name: "a local server needs no key",
			baseURL: "http://localhost:11434/v1", model: "llama3",
			want: Config{Name: "openai", BaseURL: "http://localhost:11434/v1", Model: "llama3", KeyEnv: "OPENAI_API_KEY"}},
		{name: "a DeepSeek key is never sent to another host",
			baseURL: "http://localhost:8000/v1", model: "m", env: map[string]string{"DEEPSEEK_API_KEY": "ds"},
			want: Config{Name: "openai", BaseURL: "http://localhost:8000/v1", Model: "m", KeyEnv: "OPENAI_API_KEY", WithheldKey: "DEEPSEEK_API_KEY"}},
		{name: "a DeepSeek key alone makes another server a DeepSeek-compatible one",
			baseURL: "http://127.0.0.1:8000/v1", env: map[string]string{"DEEPSEEK_API_KEY": "ds"},
			want: Config{Name: "openai", BaseURL: "http://127.0.0.1:8000/v1", Model: "deepseek-v4-flash", KeyEnv: "OPENAI_API_KEY", WithheldKey: "DEEPSEEK_API_KEY"}},
		{name: "with an OpenAI key too, another server still needs a model",
			baseURL: "http://127.0.0.1:8000/v1", env: map[string]string{"DEEPSEEK_API_KEY": "ds", "OPENAI_API_KEY": "oa"}, errMatch: "pass --model NAME"},
		{name: "an explicit DeepSeek base URL uses the DeepSeek key",
			baseURL: "https://api.deepseek.com/v1", env: map[string]string{"DEEPSEEK_API_KEY": "ds", "OPENAI_API_KEY": "oa"},
			want: Config{Name: "deepseek", BaseURL: "https://api.deepseek.com/v1", Model: "deepseek-v4-flash", APIKey: "ds", KeyEnv: "DEEPSEEK_API_KEY"}},
		{name: "no key and no base URL explains every way out",
			errMatch: "set DEEPSEEK_API_KEY (DeepSeek) or OPENAI_API_KEY"},
		{name: "no key and no base URL mentions the scripted model",
			errMatch: "--model script:"},
		{name: "a custom server without a model asks for one",
			baseURL: "http://localhost:8000/v1", errMatch: "pass --model NAME"},
		{name: "a base URL that is not http is refused",
			baseURL: "localhost:8000", model: "m", errMatch: "not an http(s) URL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ConfigFromEnv(tc.baseURL, tc.model, func(k string) string { return tc.env[k] })
			if tc.errMatch != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errMatch) {
					t.Fatalf("err %v, want it to mention %q", err, tc.errMatch)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != tc.want.Name || got.BaseURL != tc.want.BaseURL || got.Model != tc.want.Model ||
				got.APIKey != tc.want.APIKey || got.KeyEnv != tc.want.KeyEnv || got.WithheldKey != tc.want.WithheldKey {
				t.Fatalf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"seconds", map[string]string{"Retry-After": "7"}, 7 * time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "0.5"}, 500 * time.Millisecond},
		{"an HTTP date in the future", map[string]string{"Retry-After": "Fri, 02 Jan 2026 03:05:05 GMT"}, time.Minute},
		{"an HTTP date in the past", map[string]string{"Retry-After": "Fri, 02 Jan 2026 03:00:00 GMT"}, 0},
		{"milliseconds win over seconds", map[string]string{"Retry-After-Ms": "250", "Retry-After": "9"}, 250 * time.Millisecond},
		{"garbage is ignored", map[string]string{"Retry-After": "soon"}, 0},
		{"negative is ignored", map[string]string{"Retry-After": "-3"}, 0},
		{"absent", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := make(map[string][]string)
			for k, v := range tc.header {
				h[k] = []string{v}
			}
			if got := retryAfter(h, now); got != tc.want {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}
