package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/tools"
)

func newToolsCmd() *cobra.Command {
	var home, preset, output string
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "Show a preset's tools with their schemas, as the model sees them",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			set, err := loadPresets(home)
			if err != nil {
				return err
			}
			p, err := set.Get(preset)
			if err != nil {
				return err
			}
			reg, err := harness.Toolset(harness.ToolsetConfig{Preset: p})
			if err != nil {
				return err
			}
			view := toolsView{
				Preset: p.ID, Presentation: string(reg.Presentation()),
				Wire: nonNilSpecs(reg.WireToolSpecs()),
			}
			if reg.Presentation() != tools.PresentNative {
				view.Program = nonNilSpecs(reg.ProgramSpecs())
			}
			switch output {
			case "json":
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(view)
			case "", "text":
				printToolsText(c.OutOrStdout(), view)
				return nil
			}
			return fmt.Errorf("unknown output format %q: use text or json", output)
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	cmd.Flags().StringVar(&preset, "preset", "ptc", "preset whose tools to show")
	cmd.Flags().StringVar(&output, "output", "text", "output format: text or json")
	return cmd
}

// toolsView is the output of `ptc tools --output json`: the wire tools
// (sorted by name), and under ptc/both the tools programs may call.
type toolsView struct {
	Preset       string       `json:"preset"`
	Presentation string       `json:"presentation"`
	Wire         []tools.Spec `json:"wire"`
	Program      []tools.Spec `json:"program,omitempty"`
}

func nonNilSpecs(s []tools.Spec) []tools.Spec {
	if s == nil {
		return []tools.Spec{}
	}
	return s
}

func printToolsText(w io.Writer, v toolsView) {
	fmt.Fprintf(w, "preset %s, presentation %s\n\nOn the wire (the model calls these directly):\n", v.Preset, v.Presentation)
	printSpecList(w, v.Wire)
	if v.Program != nil {
		fmt.Fprintln(w, "\nIn run_code programs (await tools.<name>(args)):")
		printSpecList(w, v.Program)
	}
}

func printSpecList(w io.Writer, specs []tools.Spec) {
	if len(specs) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, s := range specs {
		summary, _, _ := strings.Cut(s.Description, "\n")
		fmt.Fprintf(w, "  %s(%s)\n      %s\n", s.Name, argSummary(s.InputSchema), summary)
	}
}

// argSummary lists a schema's top-level properties, optional ones with "?".
func argSummary(schema json.RawMessage) string {
	var doc struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if json.Unmarshal(schema, &doc) != nil {
		return "…"
	}
	required := map[string]bool{}
	for _, r := range doc.Required {
		required[r] = true
	}
	names := make([]string, 0, len(doc.Properties))
	for n := range doc.Properties {
		if !required[n] {
			n += "?"
		}
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		ri, rj := !strings.HasSuffix(names[i], "?"), !strings.HasSuffix(names[j], "?")
		if ri != rj {
			return ri
		}
		return names[i] < names[j]
	})
	return strings.Join(names, ", ")
}
