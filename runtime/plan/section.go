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

const policy = `Plan mode (when the user turns it on; refusals and the runtime context say so): every tool is read-only, so read, search and run read-only commands until you know what to change, then call exit_plan_mode once with your plan. Approved: carry it out. Refused: revise it with the user's feedback and call again.`
