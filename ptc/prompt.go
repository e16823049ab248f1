package ptc

import (
	_ "embed"
	"sort"
	"strings"

	"github.com/ptc-dev/ptc/runtime/prompt"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sdkgen"
)

//go:embed rule.md
var ruleText string

// Section names of the PTC prompt pieces.
const (
	RuleSectionName = "ptc:rule"
	SDKSectionName  = "ptc:sdk"
)

// Rule is the system-prompt rule of the ptc presentation: only run_code
// is callable directly, tools are reached from programs, and programs
// should return or print only what is needed.
func Rule() string { return strings.TrimSpace(ruleText) }

// sdkIntro precedes the declarations in the SDK section.
const sdkIntro = "The SDK (inside `run_code` programs only):"

// SDKSection renders the TypeScript declarations of the tools a program
// may call (run_code itself excluded), sorted by name, with sdkgen's
// compact renderer. The text is byte-identical for an unchanged tool set.
func SDKSection(ts []tools.Tool) (string, error) {
	specs := make([]tools.Spec, 0, len(ts))
	for _, t := range ts {
		specs = append(specs, t.Spec())
	}
	return SDKSectionFromSpecs(specs)
}

// SDKSectionFromSpecs is SDKSection for specs (e.g. Registry.ProgramSpecs).
func SDKSectionFromSpecs(specs []tools.Spec) (string, error) {
	in := make([]sdkgen.Tool, 0, len(specs))
	for _, s := range specs {
		if s.Name == tools.RunCodeName {
			continue
		}
		in = append(in, sdkgen.Tool{Name: s.Name, Description: s.Description, InputSchema: s.InputSchema, OutputSchema: s.OutputSchema})
	}
	sort.Slice(in, func(i, j int) bool { return in[i].Name < in[j].Name })
	decl, err := sdkgen.TypeScript(in, sdkgen.Options{Compact: true})
	if err != nil {
		return "", err
	}
	return sdkIntro + "\n\n```ts\n" + strings.TrimRight(decl, "\n") + "\n```", nil
}

// Sections returns the rule (order 800) and SDK (order 5000) sections of
// the ptc presentation, ready for prompt.Render.
func Sections(ts []tools.Tool) ([]prompt.Section, error) {
	sdk, err := SDKSection(ts)
	if err != nil {
		return nil, err
	}
	return []prompt.Section{
		{Name: RuleSectionName, Order: prompt.OrderPTCRule, Text: Rule(), Verbatim: true},
		{Name: SDKSectionName, Order: prompt.OrderSDK, Text: sdk, Verbatim: true},
	}, nil
}
