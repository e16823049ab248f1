package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/llm/openai"
)

// provider is one choice of the setup dialog.
type provider struct {
	name, label, baseURL, model string
	keyless                     bool // a local server: the key may be left empty
	askURL                      bool
}

var providers = []provider{
	{name: "deepseek", label: "DeepSeek", baseURL: openai.DeepSeekBaseURL, model: openai.DeepSeekModel},
	{name: "openai", label: "OpenAI", baseURL: openai.OpenAIBaseURL, model: openai.OpenAIModel},
	{name: "openrouter", label: "OpenRouter", baseURL: "https://openrouter.ai/api/v1", model: "openrouter/auto"},
	{name: "local", label: "A local server (Ollama, vLLM, llama.cpp)", baseURL: "http://127.0.0.1:11434/v1", keyless: true, askURL: true},
	{name: "custom", label: "Another OpenAI-compatible server (its base URL)", keyless: true, askURL: true},
}

// needsSetup reports whether an interactive ptc has nothing naming a
// model server: no flag, no variable, no config file.
func needsSetup(f *runFlags, dir string) bool {
	if f.resume != "" || f.settings.Model != "" || f.settings.BaseURL != "" {
		return false
	}
	for _, n := range []string{"DEEPSEEK_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"} {
		if strings.TrimSpace(os.Getenv(n)) != "" {
			return false
		}
	}
	cfg, err := harness.LoadUserConfig(dir)
	return err == nil && !cfg.Active(os.Getenv)
}

// setupOnTerminal runs the first-run dialog on the terminal and writes
// the config; a key is read without echo.
func setupOnTerminal(dir string) error {
	readKey := func() (string, error) {
		b, err := term.ReadPassword(int(os.Stdin.Fd()))
		fmt.Fprintln(os.Stdout)
		return string(b), err
	}
	return setup(bufio.NewReader(os.Stdin), os.Stdout, readKey, dir)
}

// setup asks for a provider, its base URL when it has no fixed one, a
// key (once) and a model, and saves them as the home's config.yaml.
func setup(in *bufio.Reader, out io.Writer, readKey func() (string, error), dir string) error {
	ask := func(prompt, def string) (string, error) {
		if def != "" {
			prompt += " [" + def + "]"
		}
		fmt.Fprint(out, prompt+": ")
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			return "", errors.New("setup cancelled")
		}
		if v := strings.TrimSpace(line); v != "" {
			return v, nil
		}
		return def, nil
	}
	fmt.Fprintln(out, "ptc needs a model server. Choose one (saved in "+harness.UserConfigPath(dir)+"; ptc config changes it later):")
	for i, p := range providers {
		fmt.Fprintf(out, "  %d) %s\n", i+1, p.label)
	}
	var p provider
	for {
		v, err := ask("Provider", "1")
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(v)
		if err == nil && n >= 1 && n <= len(providers) {
			p = providers[n-1]
			break
		}
		fmt.Fprintf(out, "Type a number from 1 to %d.\n", len(providers))
	}
	cfg := harness.UserConfig{Provider: p.name, BaseURL: p.baseURL, Model: p.model}
	for p.askURL {
		v, err := ask("Base URL (the API root, e.g. http://127.0.0.1:8000/v1)", p.baseURL)
		if err != nil {
			return err
		}
		if err := cfg.Set("base_url", v); err == nil && v != "" {
			break
		}
		fmt.Fprintln(out, "That is not an http(s) URL.")
	}
	for {
		hint := "API key (typed without echo)"
		if p.keyless {
			hint += ", or Enter for none"
		}
		fmt.Fprint(out, hint+": ")
		key, err := readKey()
		if err != nil {
			return fmt.Errorf("reading the key: %w", err)
		}
		cfg.APIKey = strings.TrimSpace(key)
		if cfg.APIKey != "" || p.keyless {
			break
		}
		fmt.Fprintln(out, p.label+" needs a key.")
	}
	for {
		v, err := ask("Model", cfg.Model)
		if err != nil {
			return err
		}
		if cfg.Model = v; v != "" {
			break
		}
		fmt.Fprintln(out, "Name the model the server serves (e.g. qwen2.5-coder:7b).")
	}
	if err := cfg.Save(dir); err != nil {
		return err
	}
	fmt.Fprintf(out, "Saved %s (mode 0600): %s, model %s.\n", harness.UserConfigPath(dir), termsafe.Line(cfg.BaseURL), termsafe.Line(cfg.Model))
	return nil
}
