package openai

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm/models"
)

// Public endpoints and their default models: DeepSeek's when
// DEEPSEEK_API_KEY is set, OpenAI's when only OPENAI_API_KEY is set.
const (
	DeepSeekBaseURL = "https://api.deepseek.com"
	DeepSeekModel   = "deepseek-v4-flash"
	OpenAIBaseURL   = "https://api.openai.com/v1"
	OpenAIModel     = "gpt-4o-mini"
)

// DefaultStallTimeout is how long a stream may stay silent (no byte at all,
// not even a keep-alive comment) before the attempt fails as a timeout.
const DefaultStallTimeout = 3 * time.Minute

// Config says which server to talk to and how. Build it with ConfigFromEnv
// (or by hand in tests); it is not changed after New.
type Config struct {
	// Name is the provider name recorded in request headers: "deepseek"
	// or "openai" (any OpenAI-compatible server).
	Name string
	// BaseURL is the API root, e.g. https://api.deepseek.com or
	// http://127.0.0.1:8000/v1; /chat/completions is appended.
	BaseURL string
	// Model is used when a Request names none.
	Model string
	// APIKey is sent as a bearer token; empty sends no Authorization
	// header (local servers).
	APIKey string
	// KeyEnv names the environment variable APIKey came from, so that an
	// authentication failure can tell the user what to check.
	KeyEnv string
	// WithheldKey names a key variable that was set but not sent because
	// this is not its provider's host (DEEPSEEK_API_KEY at a proxy).
	WithheldKey string
	// HTTPClient does the requests; nil uses a client without an overall
	// timeout (streams are long), guarded by StallTimeout instead.
	HTTPClient *http.Client
	// StallTimeout fails an attempt whose stream sends nothing for this
	// long; zero means DefaultStallTimeout, negative disables the guard.
	StallTimeout time.Duration
	// Now reads the clock for HTTP-date Retry-After values; nil is
	// time.Now.
	Now func() time.Time
	// Models says, per model, which field reasoning goes back in and how
	// big the context window is (for context-overflow failures); nil is
	// the built-in table.
	Models *models.Table
}

// ConfigFromEnv picks the server and key from the environment (read
// through getenv) and the --base-url / --model flags (empty when unset):
//
//   - no base URL and DEEPSEEK_API_KEY set: DeepSeek, model deepseek-v4-flash;
//   - no base URL and OPENAI_API_KEY set: OPENAI_BASE_URL or OpenAI itself;
//   - a base URL (flag or OPENAI_BASE_URL): that server with OPENAI_API_KEY
//     if set (at DeepSeek's host DEEPSEEK_API_KEY first, then
//     OPENAI_API_KEY) and no Authorization header otherwise, for local
//     vLLM/Ollama servers, which then need an explicit model — except
//     when DEEPSEEK_API_KEY is the only key set: the server is taken for a
//     DeepSeek-compatible one (a proxy, a gateway) and gets
//     deepseek-v4-flash.
//
// A DeepSeek key is never sent to another host; WithheldKey then says so,
// so that an authentication failure can tell the user why no key went.
func ConfigFromEnv(baseURL, model string, getenv func(string) string) (Config, error) {
	base := strings.TrimSpace(baseURL)
	if base == "" {
		base = strings.TrimSpace(getenv("OPENAI_BASE_URL"))
	}
	if base == "" {
		switch {
		case getenv("DEEPSEEK_API_KEY") != "":
			base = DeepSeekBaseURL
		case getenv("OPENAI_API_KEY") != "":
			base = OpenAIBaseURL
		default:
			return Config{}, errors.New("no model API key is set: set DEEPSEEK_API_KEY (DeepSeek) or OPENAI_API_KEY " +
				"(with OPENAI_BASE_URL or --base-url for another OpenAI-compatible server), " +
				"or try ptc without a key using --model script:examples/hello.json")
		}
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Config{}, fmt.Errorf("the base URL %q is not an http(s) URL; pass something like --base-url http://127.0.0.1:8000/v1", base)
	}
	cfg := Config{Name: "openai", BaseURL: strings.TrimRight(base, "/"), Model: strings.TrimSpace(model)}
	if u.Hostname() == "api.deepseek.com" {
		cfg.Name = "deepseek"
		cfg.APIKey, cfg.KeyEnv = firstKey(getenv, "DEEPSEEK_API_KEY", "OPENAI_API_KEY")
		if cfg.Model == "" {
			cfg.Model = DeepSeekModel
		}
	} else {
		cfg.APIKey, cfg.KeyEnv = firstKey(getenv, "OPENAI_API_KEY")
		if cfg.APIKey == "" && strings.TrimSpace(getenv("DEEPSEEK_API_KEY")) != "" {
			cfg.WithheldKey = "DEEPSEEK_API_KEY"
		}
	}
	switch {
	case cfg.Model != "":
	case cfg.BaseURL == OpenAIBaseURL:
		cfg.Model = OpenAIModel
	case cfg.WithheldKey != "":
		cfg.Model = DeepSeekModel
	default:
		return Config{}, fmt.Errorf("no model chosen for %s: pass --model NAME with a model that server serves", cfg.BaseURL)
	}
	return cfg, nil
}

func firstKey(getenv func(string) string, names ...string) (key, env string) {
	for _, n := range names {
		if v := strings.TrimSpace(getenv(n)); v != "" {
			return v, n
		}
	}
	return "", names[0]
}
