package harness

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/ptc-dev/ptc/presets"
	"github.com/ptc-dev/ptc/runtime/llm/backend"
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
		return errors.New("--max-steps must be 0 (no limit) or more")
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
