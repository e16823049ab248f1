package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/runtime/settingsfile"
)

// Event is a point of the session where hooks run.
type Event string

// The events.
const (
	PreToolUse       Event = "PreToolUse"
	PostToolUse      Event = "PostToolUse"
	UserPromptSubmit Event = "UserPromptSubmit"
	Stop             Event = "Stop"
	SessionStart     Event = "SessionStart"
)

var events = []Event{PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart}

// Sources of a hook.
const (
	SourceUser    = "user"
	SourceProject = "project"
)

// Timeouts of one run.
const (
	DefaultTimeout = 60 * time.Second
	MaxTimeout     = 10 * time.Minute
)

// Hook is one configured command.
type Hook struct {
	Event   Event
	Matcher string
	Command string
	Timeout time.Duration
	Source  string // SourceUser or SourceProject
	File    string
	Index   int // its place among the file's hooks of Event
	re      *regexp.Regexp
}

// Name names the hook in messages and events: source, event, place.
func (h Hook) Name() string { return fmt.Sprintf("%s %s[%d]", h.Source, h.Event, h.Index) }

// Fingerprint identifies the definition an approval covers: a changed
// command, matcher or timeout needs a new approval.
func (h Hook) Fingerprint() string {
	sum := sha256.Sum256([]byte(strings.Join([]string{string(h.Event), h.Matcher, h.Command, h.Timeout.String()}, "\x00")))
	return hex.EncodeToString(sum[:])
}

// Matches reports whether the hook applies to a tool name (tool events)
// or always (the others).
func (h Hook) Matches(tool string) bool {
	return h.re == nil || h.re.MatchString(tool)
}

// entry is one hook as written: the flat form or Claude Code's
// nested one.
type entry struct {
	Matcher   string  `json:"matcher"`
	Command   string  `json:"command"`
	TimeoutMs int     `json:"timeout_ms"`
	Hooks     []inner `json:"hooks"`
}

type inner struct {
	Type      string  `json:"type"`
	Command   string  `json:"command"`
	Timeout   float64 `json:"timeout"` // seconds, as Claude Code
	TimeoutMs int     `json:"timeout_ms"`
}

// Set is the hooks of a session, user hooks first.
type Set struct{ hooks []Hook }

// Len is how many hooks there are.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.hooks)
}

// All returns the hooks, user first, in file order.
func (s *Set) All() []Hook {
	if s == nil {
		return nil
	}
	return append([]Hook(nil), s.hooks...)
}

// For returns the hooks of ev that match tool.
func (s *Set) For(ev Event, tool string) []Hook {
	var out []Hook
	for _, h := range s.All() {
		if h.Event == ev && h.Matches(tool) {
			out = append(out, h)
		}
	}
	return out
}

// Load reads the hooks of the user's settings file and the project's. A
// bad user file is an error (the user's own configuration); a bad
// project file is a warning naming it and contributes no hooks, so a
// repository cannot stop a session from starting.
func Load(userFile, projectFile string) (*Set, []string, error) {
	s := &Set{}
	user, err := read(userFile, SourceUser)
	if err != nil {
		return nil, nil, err
	}
	s.hooks = append(s.hooks, user...)
	var warnings []string
	if projectFile != "" {
		project, err := read(projectFile, SourceProject)
		if err != nil {
			warnings = append(warnings, "project hooks not loaded: "+err.Error())
		}
		s.hooks = append(s.hooks, project...)
	}
	return s, warnings, nil
}

func read(path, source string) ([]Hook, error) {
	f, err := settingsfile.Read(path)
	if err != nil {
		return nil, err
	}
	var raw map[string]json.RawMessage
	if ok, err := f.Decode("hooks", &raw); !ok || err != nil {
		return nil, err
	}
	var out []Hook
	for _, ev := range events {
		data, ok := raw[string(ev)]
		if !ok {
			continue
		}
		delete(raw, string(ev))
		var list []entry
		if err := json.Unmarshal(data, &list); err != nil {
			return nil, fmt.Errorf("%s: hooks.%s: %v (a list of {matcher, command, timeout_ms})", path, ev, err)
		}
		hs, err := parse(path, source, ev, list)
		if err != nil {
			return nil, err
		}
		out = append(out, hs...)
	}
	for name := range raw {
		return nil, fmt.Errorf("%s: hooks: unknown event %q; the events are PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart", path, name)
	}
	return out, nil
}

func parse(path, source string, ev Event, list []entry) ([]Hook, error) {
	var out []Hook
	for i, e := range list {
		field := fmt.Sprintf("%s: hooks.%s[%d]", path, ev, i)
		cmds := []inner{{Command: e.Command, TimeoutMs: e.TimeoutMs}}
		if len(e.Hooks) > 0 {
			if e.Command != "" {
				return nil, fmt.Errorf("%s: give command or hooks, not both", field)
			}
			cmds = e.Hooks
		}
		for _, c := range cmds {
			if c.Type != "" && c.Type != "command" {
				return nil, fmt.Errorf("%s: hook type %q is not supported (only command)", field, c.Type)
			}
			h, err := newHook(ev, e.Matcher, c, source, path, len(out))
			if err != nil {
				return nil, fmt.Errorf("%s: %v", field, err)
			}
			out = append(out, h)
		}
	}
	return out, nil
}

func newHook(ev Event, matcher string, c inner, source, path string, index int) (Hook, error) {
	h := Hook{Event: ev, Matcher: matcher, Command: c.Command, Source: source, File: path, Index: index, Timeout: DefaultTimeout}
	if strings.TrimSpace(c.Command) == "" {
		return h, fmt.Errorf("command is empty")
	}
	switch {
	case c.TimeoutMs < 0 || c.Timeout < 0:
		return h, fmt.Errorf("a negative timeout")
	case c.TimeoutMs > 0:
		h.Timeout = time.Duration(c.TimeoutMs) * time.Millisecond
	case c.Timeout > 0:
		h.Timeout = time.Duration(c.Timeout * float64(time.Second))
	}
	h.Timeout = min(h.Timeout, MaxTimeout)
	if (ev == PreToolUse || ev == PostToolUse) && matcher != "" && matcher != "*" {
		re, err := regexp.Compile("(?i)^(?:" + matcher + ")$")
		if err != nil {
			return h, fmt.Errorf("matcher %q is not a regular expression: %v", matcher, err)
		}
		h.re = re
	}
	return h, nil
}
