package harness_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ptc-dev/ptc/harness"
)

// A config file that is not what ptc writes is an error naming it; a
// FIFO in its place does not hang; the environment wins over the file.
func TestUserConfigLoadAndPrecedence(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, harness.UserConfigName)
	for body, want := range map[string]string{
		"base_url: file:///etc/passwd\n": "not an http(s) URL",
		"api_kee: x\n":                   "api_kee",
		"[not: a map":                    "config.yaml",
	} {
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := harness.LoadUserConfig(dir); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("config %q: error %v, want one mentioning %q", body, err, want)
		}
	}
	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := harness.LoadUserConfig(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a FIFO config: %v", err)
	}
	os.Remove(p)

	cfg := harness.UserConfig{BaseURL: "http://127.0.0.1:8000/v1", APIKey: "k", Model: "m"}
	if err := cfg.Save(dir); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Fatalf("saved with mode %o", st.Mode().Perm())
	}
	got, err := harness.LoadUserConfig(dir)
	if err != nil || got != cfg {
		t.Fatalf("loaded %+v, %v", got, err)
	}
	none := func(string) string { return "" }
	if env := got.Getenv(none, ""); env("OPENAI_API_KEY") != "k" || env("OPENAI_BASE_URL") != cfg.BaseURL {
		t.Fatal("the config does not stand in for the model variables")
	}
	withKey := func(n string) string {
		if n == "DEEPSEEK_API_KEY" {
			return "env"
		}
		return ""
	}
	if env := got.Getenv(withKey, ""); env("OPENAI_API_KEY") != "" {
		t.Fatal("the config overrode a key set in the environment")
	}
	if env := got.Getenv(none, "https://elsewhere.example/v1"); env("OPENAI_API_KEY") != "" {
		t.Fatal("the config's key went to another --base-url")
	}
}
