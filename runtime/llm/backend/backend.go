// Package backend turns the CLI's --model and --base-url flags into an
// llm.Provider, so every command picks its model the same way, and says
// what the model table knows about the model chosen.
package backend

import (
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/models"
	"github.com/ptc-dev/ptc/runtime/llm/openai"
	"github.com/ptc-dev/ptc/runtime/llm/script"
)

// ScriptPrefix marks a --model value that names a script file.
const ScriptPrefix = "script:"

// Spec is what a model is chosen from. Model and BaseURL may be empty.
type Spec struct {
	Model   string
	BaseURL string
	// ContextWindow, when positive, replaces the table's window
	// (--context-window).
	ContextWindow int
	// Getenv reads the API keys.
	Getenv func(string) string
	// Models is the model table; nil is the built-in one.
	Models *models.Table
}

// Choice is a chosen model.
type Choice struct {
	Provider llm.Provider
	// Model is the name to put in requests.
	Model string
	// Info is the table's entry for Model, with the ContextWindow
	// override applied: the window compaction works to and the prices
	// usage is costed at.
	Info models.Model
	// Notices are lines the user should see once when the run starts:
	// the default model picked when only OPENAI_API_KEY is set, a model
	// the table does not know, a retired model.
	Notices []string
}

// Choose returns the provider for s. "script:FILE" replays FILE (no key,
// no network); anything else goes to an OpenAI-compatible server chosen by
// openai.ConfigFromEnv.
func Choose(s Spec) (Choice, error) {
	table := s.Models
	if table == nil {
		table = models.Builtin()
	}
	if file, ok := strings.CutPrefix(s.Model, ScriptPrefix); ok {
		p, err := script.Load(file)
		if err != nil {
			return Choice{}, err
		}
		// A script model is no model the table knows, unless
		// models.yaml lists it by its whole name (a demo that shows a
		// price, a test of the status line); no notice either way.
		info := table.Lookup(s.Model)
		if !info.Known {
			info = models.Model{ID: s.Model, ContextWindow: models.DefaultContextWindow}
		}
		return Choice{Provider: p, Model: s.Model, Info: info.WithContextWindow(s.ContextWindow)}, nil
	}
	cfg, err := openai.ConfigFromEnv(s.BaseURL, s.Model, s.Getenv)
	if err != nil {
		return Choice{}, err
	}
	cfg.Models = table
	c := Choice{Provider: openai.New(cfg), Model: cfg.Model, Info: table.Lookup(cfg.Model).WithContextWindow(s.ContextWindow)}
	if strings.TrimSpace(s.Model) == "" && cfg.Name != "deepseek" {
		key := "with the key from " + cfg.KeyEnv
		if cfg.APIKey == "" {
			key = "without an API key"
		}
		c.Notices = append(c.Notices, fmt.Sprintf("no --model given: using %s at %s %s (pass --model NAME to choose another)",
			cfg.Model, cfg.BaseURL, key))
	}
	if c.Info.Notice != "" {
		c.Notices = append(c.Notices, c.Info.Notice)
	}
	return c, nil
}
