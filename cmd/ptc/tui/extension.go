package tui

import (
	"strings"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
)

// extState is what the status line shows of plan mode, the active goal
// and running child sessions. These features log their own events
// (plan/mode, goal/*, child sessions); the transcript reads the few
// fields it needs by name, so a field it does not know is ignored rather
// than breaking the view.
type extState struct {
	planMode bool
	goal     string
	children map[string]bool // running child sessions by id
}

// extension folds an event of those features; others are ignored.
func (t *transcript) extension(ev session.Event) {
	var d struct {
		Active  *bool  `json:"active"`
		On      *bool  `json:"on"`
		Mode    string `json:"mode"`
		Goal    string `json:"goal"`
		Text    string `json:"text"`
		ChildID string `json:"childId"`
		Session string `json:"sessionId"`
	}
	switch {
	case ev.Type == "plan/mode":
		if !decode(ev, &d) {
			return
		}
		on := d.Mode == "plan"
		for _, b := range []*bool{d.Active, d.On} {
			if b != nil {
				on = *b
			}
		}
		t.ext.planMode = on
	case strings.HasPrefix(ev.Type, "goal/"):
		if !decode(ev, &d) {
			return
		}
		switch ev.Type {
		case "goal/set", "goal/start":
			t.ext.goal = termsafe.Clip(firstNonEmpty(d.Goal, d.Text), 60)
		case "goal/end", "goal/done", "goal/clear", "goal/cleared", "goal/met":
			t.ext.goal = ""
		}
	case strings.HasPrefix(ev.Type, "child/") || strings.HasPrefix(ev.Type, "subagent/"):
		if !decode(ev, &d) {
			return
		}
		id := firstNonEmpty(d.ChildID, d.Session)
		if id == "" {
			return
		}
		if t.ext.children == nil {
			t.ext.children = map[string]bool{}
		}
		if strings.HasSuffix(ev.Type, "/start") {
			t.ext.children[id] = true
		} else if strings.HasSuffix(ev.Type, "/end") {
			delete(t.ext.children, id)
		}
	}
}
