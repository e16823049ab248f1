package plan

import (
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/ptc-dev/ptc/runtime/session"
)

// Who switched plan mode (session.PlanMode.By).
const (
	ByUser     = "user"
	ByPreset   = "preset"
	ByApproval = "plan-approved"
	ByParent   = "parent"
)

// ExitName is the wire name of the tool that leaves plan mode (defined in
// toolbox): presets that start in plan mode must list it, and the policy
// section names it.
const ExitName = "exit_plan_mode"

// Reason is what a refused call and a failed shell command say while
// plan mode is on.
const Reason = "plan mode is on: the workspace stays read-only until the user approves a plan; " +
	"keep exploring with tools that read, then call exit_plan_mode with your plan"

// Mode is a session's plan-mode switch. It is safe for concurrent use:
// tool calls read it while the user or exit_plan_mode flips it.
type Mode struct {
	on atomic.Bool
}

// New returns a switch in the given state.
func New(active bool) *Mode {
	m := &Mode{}
	m.on.Store(active)
	return m
}

// Active reports whether plan mode is on.
func (m *Mode) Active() bool { return m != nil && m.on.Load() }

// Set switches plan mode and reports whether that changed anything.
func (m *Mode) Set(active bool) bool { return m.on.Swap(active) != active }

// ReadOnly is the tools.Env.ReadOnly of the session: Reason while plan
// mode is on, "" otherwise.
func (m *Mode) ReadOnly() string {
	if m.Active() {
		return Reason
	}
	return ""
}

// Restore is the state the log leaves plan mode in: the last plan/mode
// event's, or def when there is none.
func Restore(events []session.Event, def bool) (bool, error) {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type != session.TypePlanMode {
			continue
		}
		var d session.PlanMode
		if err := json.Unmarshal(events[i].Data, &d); err != nil {
			return def, fmt.Errorf("plan/mode at seq %d is not valid: %w", events[i].Seq, err)
		}
		return d.Active, nil
	}
	return def, nil
}
