package harness

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/ptc-dev/ptc/presets"
	"github.com/ptc-dev/ptc/runtime/llm/backend"
	"github.com/ptc-dev/ptc/runtime/llm/openai"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sandbox"
)

// CheckSettings rejects values no session can run with, naming the
// accepted ones. It needs neither the preset nor the filesystem, so a
// command can call it before opening anything. Empty fields are fine
// (they take defaults).
func CheckSettings(s session.Settings) error {
	if s.Sandbox != "" {
		if _, err := sandbox.ParseMode(s.Sandbox); err != nil {
			return err
		}
	}
	if s.Approval != "" {
		if _, err := tools.ParsePolicy(s.Approval); err != nil {
			return err
		}
	}
	if s.MaxSteps < 0 {
		return errors.New("--max-steps must be 1 or more (0, the default, takes the preset's budget)")
	}
	if s.ContextWindow < 0 {
		return errors.New("--context-window must be 0 (the model's own) or more")
	}
	return nil
}

// resolveSettings fills the defaults of s from its preset (preset ptc,
// the preset's sandbox and step budget, approval ask, the current
// directory as workspace) and makes the workspace and a script model's
// file absolute, so that the recorded settings mean the same thing from
// any directory. A resumed session's settings go through it again after
// overrides are applied, which changes nothing already resolved.
func resolveSettings(s session.Settings, set *presets.Set, getwd func() (string, error)) (session.Settings, *presets.Preset, error) {
	if err := CheckSettings(s); err != nil {
		return s, nil, err
	}
	p, err := set.Get(s.Preset)
	if err != nil {
		return s, nil, err
	}
	s.Preset = p.ID
	if s.Sandbox == "" {
		s.Sandbox = p.Sandbox
	}
	if s.Approval == "" {
		s.Approval = string(tools.PolicyAsk)
	}
	if s.MaxSteps == 0 {
		s.MaxSteps = p.MaxSteps
	}
	if s.Workspace, err = ResolveWorkspace(s.Workspace, getwd); err != nil {
		return s, nil, err
	}
	if file, ok := strings.CutPrefix(s.Model, backend.ScriptPrefix); ok && file != "" && !filepath.IsAbs(file) {
		wd, err := getwd()
		if err != nil {
			return s, nil, err
		}
		s.Model = backend.ScriptPrefix + filepath.Join(wd, file)
	}
	return s, p, nil
}

// NewHeader is the header a new session of home would be created with
// from settings: defaults filled from the preset, paths made absolute,
// the model chosen by the environment pinned (see Open). A fleet client
// creates a session with it and leaves the running to a worker. The
// notes are what choosing the model had to say.
func NewHeader(home *Home, settings session.Settings, getenv func(string) string, getwd func() (string, error)) (session.Header, []string, error) {
	set, err := home.Presets()
	if err != nil {
		return session.Header{}, nil, err
	}
	o := Options{Getenv: getenv, Getwd: getwd}.withDefaults()
	h, _, notes, err := newHeader(settings, set, o.Getenv, o.Getwd)
	return h, notes, err
}

func newHeader(settings session.Settings, set *presets.Set, getenv func(string) string, getwd func() (string, error)) (session.Header, *presets.Preset, []string, error) {
	s, p, err := resolveSettings(settings, set, getwd)
	if err != nil {
		return session.Header{}, nil, nil, err
	}
	s, notes := pinModel(s, getenv)
	return session.Header{Settings: s}, p, notes, nil
}

// pinModel records, for a new session on a real server, the model and
// base URL the environment chose (DEEPSEEK_API_KEY alone, or
// OPENAI_BASE_URL), so that resuming it from a shell with other
// variables talks to the same server and model. The key is never
// recorded. A script model, or an environment that chooses nothing, is
// left as given. It also returns what the choice had to tell the user
// (the default it picked), which the pinned settings no longer say.
func pinModel(s session.Settings, getenv func(string) string) (session.Settings, []string) {
	if strings.HasPrefix(s.Model, backend.ScriptPrefix) {
		return s, nil
	}
	choice, err := backend.Choose(backend.Spec{Model: s.Model, BaseURL: s.BaseURL, ContextWindow: s.ContextWindow, Getenv: getenv})
	if err != nil {
		return s, nil
	}
	var notices []string
	if s.Model == "" {
		// Only the pick itself needs saying here; what the model table
		// says about the model is said when the session composes it.
		s.Model, notices = choice.Model, choice.Notices
	}
	if s.BaseURL == "" {
		if cfg, err := openai.ConfigFromEnv("", s.Model, getenv); err == nil {
			s.BaseURL = cfg.BaseURL
		}
	}
	return s, notices
}
