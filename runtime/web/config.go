package web

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/settingsfile"
)

// Environment variables that configure the web tools.
const (
	EnvSearXNG      = "PTC_SEARXNG_URL"
	EnvBrave        = "BRAVE_API_KEY"
	EnvTavily       = "TAVILY_API_KEY"
	EnvAllowPrivate = "PTC_WEB_ALLOW_PRIVATE"
)

// Backend names, as Config.Backend and the events give them.
const (
	BackendSearXNG = "searxng"
	BackendBrave   = "brave"
	BackendTavily  = "tavily"
)

// Config is how the web tools reach the network. The zero value fetches
// public addresses only and has no search backend.
type Config struct {
	// SearXNGURL is a SearXNG instance's base URL; ptc asks
	// $URL/search?q=…&format=json.
	SearXNGURL string `json:"searxng_url,omitempty"`
	// BraveAPIKey and TavilyAPIKey are those services' keys.
	BraveAPIKey  string `json:"brave_api_key,omitempty"`
	TavilyAPIKey string `json:"tavily_api_key,omitempty"`
	// Backend chooses among several configured backends; "" takes the
	// first of searxng, brave, tavily that is configured.
	Backend string `json:"backend,omitempty"`
	// AllowPrivate lets web_fetch reach loopback and private addresses.
	AllowPrivate bool `json:"allow_private,omitempty"`

	// braveURL and tavilyURL replace the services' endpoints in tests.
	braveURL, tavilyURL string
}

// WithEnv returns c with what the environment sets taken over it: the
// environment wins over the settings file. A PTC_WEB_ALLOW_PRIVATE that
// is neither 1/true nor 0/false is an error naming it.
func (c Config) WithEnv(getenv func(string) string) (Config, error) {
	if v := strings.TrimSpace(getenv(EnvSearXNG)); v != "" {
		c.SearXNGURL = v
	}
	if v := strings.TrimSpace(getenv(EnvBrave)); v != "" {
		c.BraveAPIKey = v
	}
	if v := strings.TrimSpace(getenv(EnvTavily)); v != "" {
		c.TavilyAPIKey = v
	}
	switch v := strings.ToLower(strings.TrimSpace(getenv(EnvAllowPrivate))); v {
	case "":
	case "1", "true", "yes":
		c.AllowPrivate = true
	case "0", "false", "no":
		c.AllowPrivate = false
	default:
		return c, fmt.Errorf("%s=%q: use 1 to allow private and loopback addresses, or 0", EnvAllowPrivate, v)
	}
	return c, c.check()
}

// check rejects a backend name that is not one, or that is not set up.
func (c Config) check() error {
	switch c.Backend {
	case "":
		return nil
	case BackendSearXNG, BackendBrave, BackendTavily:
		if c.searcher() == nil {
			return fmt.Errorf("web backend %q is chosen but not configured (%s)", c.Backend, HowToConfigure)
		}
		return nil
	}
	return fmt.Errorf("unknown web backend %q: use searxng, brave or tavily", c.Backend)
}

// HowToConfigure is what a user must do for web_search to work.
const HowToConfigure = "set PTC_SEARXNG_URL to a SearXNG instance's base URL, BRAVE_API_KEY or TAVILY_API_KEY, " +
	`or the same in the "web" section of $PTC_HOME/settings.json ("searxng_url", "brave_api_key", "tavily_api_key")`

// ErrNoBackend is web_search's error when no backend is configured.
var ErrNoBackend = errors.New("no web search backend is configured: " + HowToConfigure)

// LoadConfig reads the web section of the user's settings file at path
// (settingsfile.User) and applies the environment over it.
func LoadConfig(path string, getenv func(string) string) (Config, error) {
	var c Config
	f, err := settingsfile.Read(path)
	if err != nil {
		return c, err
	}
	if _, err := f.Decode("web", &c); err != nil {
		return c, err
	}
	return c.WithEnv(getenv)
}
