package serve

import (
	"errors"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/ptc-dev/ptc/runtime/llm/models"
	"github.com/ptc-dev/ptc/runtime/session"
)

// Settings are a session's settings as the API names them (the CLI's
// flags in snake case). In a create or settings request an absent field
// takes the default (create) or stays as it is (settings).
type Settings struct {
	Workspace     string `json:"workspace"`
	Preset        string `json:"preset,omitempty"`
	Model         string `json:"model,omitempty"`
	BaseURL       string `json:"base_url,omitempty"`
	Sandbox       string `json:"sandbox,omitempty"`
	Approval      string `json:"approval,omitempty"`
	MaxSteps      int    `json:"max_steps,omitempty"`
	ContextWindow int    `json:"context_window,omitempty"`
	NoCompact     bool   `json:"no_compact,omitempty"`
	Network       bool   `json:"network,omitempty"`
}

func apiSettings(s session.Settings) Settings {
	return Settings{Workspace: s.Workspace, Preset: s.Preset, Model: s.Model, BaseURL: s.BaseURL, Sandbox: s.Sandbox,
		Approval: s.Approval, MaxSteps: s.MaxSteps, ContextWindow: s.ContextWindow, NoCompact: s.NoCompact, Network: s.Network}
}

// settings are a create request's settings for a new session; the
// workspace must be an absolute path, of a directory that where says
// (the server's machine, a fleet's workers).
func (b Settings) settings(where string) (session.Settings, error) {
	if b.Workspace == "" || !filepath.IsAbs(b.Workspace) {
		return session.Settings{}, errors.New("workspace must be the absolute path of " + where)
	}
	return session.Settings{
		Workspace: b.Workspace, Preset: b.Preset, Model: b.Model, BaseURL: b.BaseURL, Sandbox: b.Sandbox,
		Approval: b.Approval, MaxSteps: b.MaxSteps, ContextWindow: b.ContextWindow, NoCompact: b.NoCompact, Network: b.Network,
	}, nil
}

// readPrompt reads a prompt request's text, answering 400 itself when
// the body is not one or the text is blank.
func readPrompt(w http.ResponseWriter, r *http.Request) (string, bool) {
	var body struct {
		Text string `json:"text"`
	}
	if err := readJSON(r, &body); err != nil {
		badRequest(w, err)
		return "", false
	}
	if strings.TrimSpace(body.Text) == "" {
		badRequest(w, errors.New("text is empty"))
		return "", false
	}
	return body.Text, true
}

// Record is what the API says about one session.
type Record struct {
	ID        string   `json:"id"`
	Title     string   `json:"title,omitempty"`
	Status    string   `json:"status"`
	CreatedAt int64    `json:"created_at"`
	UpdatedAt int64    `json:"updated_at"`
	Events    int64    `json:"events"`
	Turns     int      `json:"turns"`
	Settings  Settings `json:"settings"`
	Parent    string   `json:"parent,omitempty"`
	Depth     int      `json:"depth"`
	// Served: this server has the session open; Running: a turn (or a
	// compaction) runs now; Queued: prompts waiting for it.
	Served  bool `json:"served"`
	Running bool `json:"running"`
	Queued  int  `json:"queued"`
	// OwnerPID names another process that runs the session (a terminal
	// ptc): then it can be watched here but not driven.
	OwnerPID int `json:"owner_pid,omitempty"`
	// Worker names the fleet worker running the session now (ptc serve
	// --nats).
	Worker   string     `json:"worker,omitempty"`
	PlanMode bool       `json:"plan_mode,omitempty"`
	Model    *ModelInfo `json:"model,omitempty"`
	Notices  []string   `json:"notices,omitempty"`
	// Error is why the last turn could not run to its end (the log could
	// not be written); turn failures are in the events.
	Error   string    `json:"error,omitempty"`
	Pending []Pending `json:"pending"`
}

// Statuses a record may have besides the listing's (new, running, and
// the last turn's end reason).
const (
	// StatusWaiting: a request waits for a person.
	StatusWaiting = "waiting"
)

// ModelInfo is what the model table says about a served session's model:
// its context window, for the UI's context meter, and whether it is
// priced (the cost of each answer is in its usage, cost_usd).
type ModelInfo struct {
	Name          string `json:"name"`
	ContextWindow int    `json:"context_window"`
	Priced        bool   `json:"priced"`
}

func modelInfo(m models.Model) *ModelInfo {
	return &ModelInfo{Name: m.ID, ContextWindow: m.ContextWindow, Priced: m.Priced()}
}

// recordOf is the record of a listed session.
func recordOf(s session.Summary) Record {
	r := Record{
		ID: s.Header.ID, Title: s.Title, Status: s.Status, CreatedAt: s.Header.CreatedAt, UpdatedAt: s.UpdatedAt,
		Events: s.Events, Turns: s.Turns, Settings: apiSettings(s.Settings), Parent: s.Header.Parent, Depth: s.Header.Depth,
		Pending: []Pending{},
	}
	if r.Settings.Workspace == "" {
		r.Settings = apiSettings(s.Header.Settings)
	}
	if s.Owner.Live {
		r.OwnerPID = s.Owner.PID
	}
	return r
}
