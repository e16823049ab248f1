package toolbox

import (
	"fmt"
	"slices"

	"github.com/ptc-dev/ptc/runtime/goal"
	"github.com/ptc-dev/ptc/runtime/plan"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/skills"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/runtime/web"
)

// Needs says what a tool's constructor draws from Deps.
type Needs uint8

// What a constructor may need.
const (
	// NeedsSandbox: the build's Sandbox (host, mode, approval policy).
	NeedsSandbox Needs = 1 << iota
	// NeedsPlan: the session's plan-mode switch.
	NeedsPlan
	// NeedsGoals: the session's goal keeper.
	NeedsGoals
	// NeedsAgents: the session's children. A nil Agents still builds (the
	// tools list and refuse to run), as ptc tools and ptc exec need.
	NeedsAgents
	// NeedsSkills: the skills found for the session. Without any, the
	// tool is left out of the toolset (see Entry.Absent).
	NeedsSkills
	// NeedsSessions: the home's sessions. A nil catalog still builds (the
	// tools refuse to run), as ptc tools and ptc exec need.
	NeedsSessions
)

// Deps is what one toolset build hands the catalog's constructors. The
// tools of one build share it, so the sandbox tools of a build share one
// Sandbox (write and edit see what read recorded).
type Deps struct {
	// Sandbox gives the build's sandbox tool set; the caller makes it on
	// first use and returns the same one after.
	Sandbox func() (*Sandbox, error)
	// Plan is the session's plan-mode switch, ExitPlan how
	// exit_plan_mode treats this run.
	Plan     *plan.Mode
	ExitPlan ExitPlanOptions
	// Goals is the session's goal keeper.
	Goals *goal.Keeper
	// Agents are the session's children (nil: no session).
	Agents Agents
	// Skills are the skills of the session's workspace and home (nil:
	// none).
	Skills *skills.Catalog
	// Sessions are the home's sessions, which session_search and
	// session_read query (nil: none).
	Sessions *session.Catalog
	// Web is how web_fetch and web_search reach the network (the zero
	// value: public addresses, no search backend).
	Web web.Config
}

// Entry is one built-in tool: its wire name, what its constructor needs,
// and the constructor.
type Entry struct {
	Name  string
	Needs Needs
	// Hidden tools are in no preset's reach (noop, for tests and
	// benchmarks); PresetNames leaves them out.
	Hidden bool
	// Absent, when set, reports that what the tool serves is not there
	// for this build (no skills): the toolset leaves the tool out
	// instead of offering the model a tool with nothing behind it.
	Absent func(Deps) bool
	New    func(Deps) (tools.Tool, error)
}

// catalog is every built-in tool, in the order `ptc tools` has always
// listed the standard and minimal presets' tools.
var catalog = []Entry{
	{Name: "read", Needs: NeedsSandbox, New: sandboxed((*set).read)},
	{Name: "write", Needs: NeedsSandbox, New: sandboxed((*set).write)},
	{Name: "edit", Needs: NeedsSandbox, New: sandboxed((*set).edit)},
	{Name: "glob", Needs: NeedsSandbox, New: sandboxed((*set).glob)},
	{Name: "grep", Needs: NeedsSandbox, New: sandboxed((*set).grep)},
	{Name: "bash", Needs: NeedsSandbox, New: sandboxed((*set).bash)},
	{Name: "shell", Needs: NeedsSandbox, New: sandboxed((*set).shell)},
	{Name: "str_replace_editor", Needs: NeedsSandbox, New: sandboxed((*set).editor)},
	{Name: JobListName, Needs: NeedsSandbox, New: sandboxed((*set).jobList)},
	{Name: JobOutputName, Needs: NeedsSandbox, New: sandboxed((*set).jobOutput)},
	{Name: JobKillName, Needs: NeedsSandbox, New: sandboxed((*set).jobKill)},
	{Name: TerminalOpenName, Needs: NeedsSandbox, New: sandboxed((*set).terminalOpen)},
	{Name: TerminalSendName, Needs: NeedsSandbox, New: sandboxed((*set).terminalSend)},
	{Name: TerminalReadName, Needs: NeedsSandbox, New: sandboxed((*set).terminalRead)},
	{Name: TerminalSignalName, Needs: NeedsSandbox, New: sandboxed((*set).terminalSignal)},
	{Name: TerminalListName, Needs: NeedsSandbox, New: sandboxed((*set).terminalList)},
	{Name: TerminalCloseName, Needs: NeedsSandbox, New: sandboxed((*set).terminalClose)},
	{Name: TodoWriteName, New: fixed(TodoWrite)},
	{Name: AskUserQuestionName, New: fixed(AskUserQuestion)},
	{Name: plan.ExitName, Needs: NeedsPlan, New: func(d Deps) (tools.Tool, error) { return ExitPlanMode(d.Plan, d.ExitPlan), nil }},
	{Name: CreateGoalName, Needs: NeedsGoals, New: func(d Deps) (tools.Tool, error) { return CreateGoal(d.Goals), nil }},
	{Name: GetGoalName, Needs: NeedsGoals, New: func(d Deps) (tools.Tool, error) { return GetGoal(d.Goals), nil }},
	{Name: UpdateGoalName, Needs: NeedsGoals, New: func(d Deps) (tools.Tool, error) { return UpdateGoal(d.Goals), nil }},
	{Name: SubagentName, Needs: NeedsAgents, New: func(d Deps) (tools.Tool, error) { return Subagent(d.Agents), nil }},
	{Name: AgentOutputName, Needs: NeedsAgents, New: func(d Deps) (tools.Tool, error) { return AgentOutput(d.Agents), nil }},
	{Name: AgentListName, Needs: NeedsAgents, New: func(d Deps) (tools.Tool, error) { return AgentList(d.Agents), nil }},
	{Name: AgentStopName, Needs: NeedsAgents, New: func(d Deps) (tools.Tool, error) { return AgentStop(d.Agents), nil }},
	{Name: WorkflowName, Needs: NeedsAgents, New: func(d Deps) (tools.Tool, error) { return NewWorkflow(d.Agents), nil }},
	{Name: RalphName, Needs: NeedsAgents, New: func(d Deps) (tools.Tool, error) { return Ralph(d.Agents), nil }},
	{Name: SkillName, Needs: NeedsSkills, Absent: func(d Deps) bool { return d.Skills.Len() == 0 }, New: func(d Deps) (tools.Tool, error) { return Skill(d.Skills), nil }},
	{Name: SessionSearchName, Needs: NeedsSessions, New: func(d Deps) (tools.Tool, error) { return SessionSearch(d.Sessions), nil }},
	{Name: SessionReadName, Needs: NeedsSessions, New: func(d Deps) (tools.Tool, error) { return SessionRead(d.Sessions), nil }},
	{Name: WebSearchName, New: func(d Deps) (tools.Tool, error) { return WebSearch(d.Web), nil }},
	{Name: WebFetchName, New: func(d Deps) (tools.Tool, error) { return WebFetch(d.Web), nil }},
	{Name: tools.RunCodeName, New: fixed(func() tools.Tool { return NewRunCode(RunCodeConfig{}) })},
	{Name: NoopName, Hidden: true, New: fixed(Noop)},
}

func fixed(t func() tools.Tool) func(Deps) (tools.Tool, error) {
	return func(Deps) (tools.Tool, error) { return t(), nil }
}

// sandboxed builds a sandbox tool from the build's one Sandbox.
func sandboxed(t func(*set) tools.Tool) func(Deps) (tools.Tool, error) {
	return func(d Deps) (tools.Tool, error) {
		sb, err := d.Sandbox()
		if err != nil {
			return nil, err
		}
		return t(sb.set), nil
	}
}

// Catalog returns every built-in tool's entry (a copy).
func Catalog() []Entry { return slices.Clone(catalog) }

// Lookup finds the entry of the built-in tool called name.
func Lookup(name string) (Entry, bool) {
	i := slices.IndexFunc(catalog, func(e Entry) bool { return e.Name == name })
	if i < 0 {
		return Entry{}, false
	}
	return catalog[i], true
}

// PresetNames lists the tool names a preset may use, sorted; presets are
// validated against it.
func PresetNames() []string {
	var names []string
	for _, e := range catalog {
		if !e.Hidden {
			names = append(names, e.Name)
		}
	}
	slices.Sort(names)
	return names
}

// Build builds the built-in tool called name from d. It fails when name is
// not a built-in tool, or d lacks what the tool needs (a broken build,
// not a model error).
func Build(name string, d Deps) (tools.Tool, error) {
	e, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("no built-in tool named %q", name)
	}
	if err := d.check(e); err != nil {
		return nil, err
	}
	return e.New(d)
}

func (d Deps) check(e Entry) error {
	switch {
	case e.Needs&NeedsSandbox != 0 && d.Sandbox == nil:
		return fmt.Errorf("%s needs a sandbox", e.Name)
	case e.Needs&NeedsPlan != 0 && d.Plan == nil:
		return fmt.Errorf("%s needs the session's plan mode", e.Name)
	case e.Needs&NeedsGoals != 0 && d.Goals == nil:
		return fmt.Errorf("%s needs the session's goal keeper", e.Name)
	}
	return nil
}
