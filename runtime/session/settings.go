package session

import "fmt"

// TypeSettings records that a session's settings changed: on resume with
// a flag that overrides a recorded setting, or between turns (a TUI
// switching model or sandbox). The header keeps the settings the session
// was created with; the latest session/settings event wins.
var TypeSettings = eventType("session/settings")

// Settings are the choices a session runs with, recorded so that a
// resumed session continues exactly as it was. The API key is never part
// of them. Workspace keeps the header's historical JSON name "cwd".
type Settings struct {
	Workspace string `json:"cwd"`
	Preset    string `json:"preset,omitempty"`
	// Model is the model name, or script:FILE with FILE absolute.
	Model string `json:"model,omitempty"`
	// BaseURL is the OpenAI-compatible API root in use, if any.
	BaseURL  string `json:"baseUrl,omitempty"`
	Sandbox  string `json:"sandbox,omitempty"`
	Approval string `json:"approval,omitempty"`
	// MaxSteps is the step budget of a turn; 0 means none.
	MaxSteps int `json:"maxSteps,omitempty"`
	// ContextWindow overrides the model's context window in tokens; 0
	// means the model's own.
	ContextWindow int `json:"contextWindow,omitempty"`
	// NoCompact turns automatic pruning and compaction off (--no-compact);
	// a manual compaction still works.
	NoCompact bool `json:"noCompact,omitempty"`
	// Network lets the host programs the sandbox runs reach the network
	// (--network); off, they have none.
	Network bool `json:"network,omitempty"`
	// WebFetch adds the web_fetch tool whatever the preset says
	// (--web-fetch).
	WebFetch bool `json:"webFetch,omitempty"`
}

// SettingsChange is the data of session/settings: the whole new settings,
// the fields that changed and why ("resume": flags given on resume;
// "change": changed between turns).
type SettingsChange struct {
	Settings Settings `json:"settings"`
	Changed  []Field  `json:"changed"`
	Reason   string   `json:"reason"`
}

// Field names one setting, as in its JSON form.
type Field string

// The settings fields.
const (
	FieldWorkspace     Field = "cwd"
	FieldPreset        Field = "preset"
	FieldModel         Field = "model"
	FieldBaseURL       Field = "baseUrl"
	FieldSandbox       Field = "sandbox"
	FieldApproval      Field = "approval"
	FieldMaxSteps      Field = "maxSteps"
	FieldContextWindow Field = "contextWindow"
	FieldNoCompact     Field = "noCompact"
	FieldNetwork       Field = "network"
	FieldWebFetch      Field = "webFetch"
)

// AllFields lists every settings field in a stable order.
var AllFields = []Field{FieldWorkspace, FieldPreset, FieldModel, FieldBaseURL, FieldSandbox, FieldApproval, FieldMaxSteps, FieldContextWindow, FieldNoCompact, FieldNetwork, FieldWebFetch}

// With returns s with the named fields taken from o.
func (s Settings) With(o Settings, fields ...Field) Settings {
	for _, f := range fields {
		switch f {
		case FieldWorkspace:
			s.Workspace = o.Workspace
		case FieldPreset:
			s.Preset = o.Preset
		case FieldModel:
			s.Model = o.Model
		case FieldBaseURL:
			s.BaseURL = o.BaseURL
		case FieldSandbox:
			s.Sandbox = o.Sandbox
		case FieldApproval:
			s.Approval = o.Approval
		case FieldMaxSteps:
			s.MaxSteps = o.MaxSteps
		case FieldContextWindow:
			s.ContextWindow = o.ContextWindow
		case FieldNoCompact:
			s.NoCompact = o.NoCompact
		case FieldNetwork:
			s.Network = o.Network
		case FieldWebFetch:
			s.WebFetch = o.WebFetch
		}
	}
	return s
}

// Diff lists, in AllFields order, the fields whose values differ in o.
func (s Settings) Diff(o Settings) []Field {
	var out []Field
	for _, f := range AllFields {
		if s.With(o, f) != s {
			out = append(out, f)
		}
	}
	return out
}

// CurrentSettings are the settings in force at the end of events: the
// header's, replaced by each session/settings event in turn.
func CurrentSettings(h Header, events []Event) (Settings, error) {
	s := h.Settings
	for _, e := range events {
		if e.Type != TypeSettings {
			continue
		}
		var d SettingsChange
		if err := decodeFor(e, &d); err != nil {
			return s, fmt.Errorf("session %s: %w", h.ID, err)
		}
		s = d.Settings
	}
	return s, nil
}
