package tui

import "testing"

func TestPlanSwitchAndGoalActionReadTheSlashCommandWords(t *testing.T) {
	plans := []struct {
		arg         string
		current, on bool
		ok          bool
	}{
		{"on", false, true, true},
		{"off", true, false, true},
		{"", false, true, true},
		{"", true, false, true},
		{"maybe", true, true, false},
	}
	for _, c := range plans {
		if on, ok := PlanSwitch(c.arg, c.current); on != c.on || ok != c.ok {
			t.Errorf("PlanSwitch(%q, %v) = %v, %v; want %v, %v", c.arg, c.current, on, ok, c.on, c.ok)
		}
	}
	goals := map[string]string{"pause": "pause", "resume": "resume", "done": "complete", "complete": "complete", "fix the parser": ""}
	for arg, want := range goals {
		if got, ok := GoalAction(arg); got != want || ok != (want != "") {
			t.Errorf("GoalAction(%q) = %q, %v; want %q", arg, got, ok, want)
		}
	}
}
