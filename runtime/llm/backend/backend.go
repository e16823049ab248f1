// Package backend turns the CLI's --model and --base-url flags into an
// llm.Provider, so every command picks its model the same way.
package backend

import (
	"strings"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/openai"
	"github.com/ptc-dev/ptc/runtime/llm/script"
)

// ScriptPrefix marks a --model value that names a script file.
const ScriptPrefix = "script:"

// Open returns the provider for model and baseURL (either may be empty),
// reading keys through getenv, and the model name to put in requests.
// "script:FILE" replays FILE (no key, no network); anything else goes to
// an OpenAI-compatible server chosen by openai.ConfigFromEnv.
func Open(model, baseURL string, getenv func(string) string) (llm.Provider, string, error) {
	if file, ok := strings.CutPrefix(model, ScriptPrefix); ok {
		p, err := script.Load(file)
		if err != nil {
			return nil, "", err
		}
		return p, model, nil
	}
	cfg, err := openai.ConfigFromEnv(baseURL, model, getenv)
	if err != nil {
		return nil, "", err
	}
	return openai.New(cfg), cfg.Model, nil
}
