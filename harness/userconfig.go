package harness

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// UserConfigName is the user's model configuration file in the ptc home.
const UserConfigName = "config.yaml"

// UserConfig is $PTC_HOME/config.yaml: the model ptc talks to when the
// environment names none. Written by the first-run setup or ptc config
// set, mode 0600 (it holds a key).
type UserConfig struct {
	// Provider is the name of the choice made at setup (deepseek, openai,
	// openrouter, local, custom): informational, BaseURL decides.
	Provider string `yaml:"provider,omitempty"`
	// BaseURL is the OpenAI-compatible API root.
	BaseURL string `yaml:"base_url,omitempty"`
	// Model is the default model name.
	Model string `yaml:"model,omitempty"`
	// APIKey is the key sent to BaseURL ("" for a local server that needs none).
	APIKey string `yaml:"api_key,omitempty"`
}

// UserConfigKeys are the keys ptc config get/set know, in file order.
var UserConfigKeys = []string{"provider", "base_url", "model", "api_key"}

// UserConfigPath is the config file of the home at dir.
func UserConfigPath(dir string) string { return filepath.Join(dir, UserConfigName) }

// maxConfigBytes bounds the config file read.
const maxConfigBytes = 64 << 10

// LoadUserConfig reads the config of the home at dir. A missing file is
// the zero config; a file that is not a regular file, too large, not
// YAML, with an unknown key or a base URL that is not http(s) is an
// error naming it.
func LoadUserConfig(dir string) (UserConfig, error) {
	var c UserConfig
	p := UserConfigPath(dir)
	f, err := os.OpenFile(p, os.O_RDONLY|oNonblock, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return c, fmt.Errorf("%s: not a regular file", p)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return c, fmt.Errorf("%s: %w", p, err)
	}
	if len(b) > maxConfigBytes {
		return c, fmt.Errorf("%s: larger than %d bytes", p, maxConfigBytes)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return UserConfig{}, fmt.Errorf("%s: %v", p, err)
	}
	if err := c.check(); err != nil {
		return UserConfig{}, fmt.Errorf("%s: %v", p, err)
	}
	return c, nil
}

func (c UserConfig) check() error {
	if c.BaseURL == "" {
		return nil
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("base_url %q is not an http(s) URL", c.BaseURL)
	}
	return nil
}

// Get is the value of key ("" for an unknown key: see UserConfigKeys).
func (c UserConfig) Get(key string) (string, bool) {
	switch key {
	case "provider":
		return c.Provider, true
	case "base_url":
		return c.BaseURL, true
	case "model":
		return c.Model, true
	case "api_key":
		return c.APIKey, true
	}
	return "", false
}

// Set sets key to value.
func (c *UserConfig) Set(key, value string) error {
	value = strings.TrimSpace(value)
	switch key {
	case "provider":
		c.Provider = value
	case "base_url":
		c.BaseURL = value
	case "model":
		c.Model = value
	case "api_key":
		c.APIKey = value
	default:
		return fmt.Errorf("unknown key %q: use one of %s", key, strings.Join(UserConfigKeys, ", "))
	}
	return c.check()
}

// Save writes c as the config of the home at dir, mode 0600, beside
// and renamed into place.
func (c UserConfig) Save(dir string) error {
	if err := c.check(); err != nil {
		return err
	}
	b, err := yaml.Marshal(c)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := UserConfigPath(dir) + ".tmp-" + hex.EncodeToString(rnd[:])
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, UserConfigPath(dir)); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// modelEnv are the variables that name a model server; any of them set
// means the environment chose, and the config file stays out of it.
var modelEnv = []string{"DEEPSEEK_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"}

// Active reports whether the config decides the model server: it names
// one and the environment names none.
func (c UserConfig) Active(getenv func(string) string) bool {
	if c.BaseURL == "" && c.APIKey == "" {
		return false
	}
	for _, n := range modelEnv {
		if strings.TrimSpace(getenv(n)) != "" {
			return false
		}
	}
	return true
}

// Getenv is getenv with the config standing in for the model variables
// when it is Active: OPENAI_BASE_URL is its base URL and OPENAI_API_KEY
// its key (the adapter sends that to any server, DeepSeek's included).
// baseURL is the one given as a flag: when it names another server the
// config's key is not handed to it.
func (c UserConfig) Getenv(getenv func(string) string, baseURL string) func(string) string {
	if !c.Active(getenv) || baseURL != "" && strings.TrimRight(baseURL, "/") != strings.TrimRight(c.BaseURL, "/") {
		return getenv
	}
	return func(name string) string {
		switch name {
		case "OPENAI_BASE_URL":
			return c.BaseURL
		case "OPENAI_API_KEY":
			return c.APIKey
		}
		return getenv(name)
	}
}
