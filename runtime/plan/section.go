package plan

import "github.com/ptc-dev/ptc/runtime/prompt"

// SectionName is the plan policy's prompt section.
const SectionName = "plan-policy"

// Section is the plan policy (order band 500). Its text never depends on
// whether plan mode is on, so the system prompt stays byte-stable; the
// state reaches the model through refusals and the tool's results.
func Section() prompt.Section {
	return prompt.Section{Name: SectionName, Order: prompt.OrderPlanPolicy, Text: policy}
}

const policy = `Plan mode: the user can put the session in plan mode, and you are told when a call is refused because of it. While it is on, the workspace is read-only for every tool: writes and edits are refused and shell commands cannot change files. Use the time to read the relevant code, search it and run read-only commands until you know what to change. Then call exit_plan_mode once with the plan as markdown that starts with a heading: the goal in a sentence, then the steps as a list, each naming the files it touches and how you will check it. If the user approves, plan mode ends, the steps become your todo list and you carry out the plan; if not, the call fails with the user's feedback: revise the plan and call exit_plan_mode again. Outside plan mode exit_plan_mode only fails; do not call it then.`
