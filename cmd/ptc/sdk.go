package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sdkgen"
)

func newSdkCmd() *cobra.Command {
	var (
		lang, preset, out, home string
		files                   []string
		compact                 bool
	)
	cmd := &cobra.Command{
		Use:   "sdk [--lang ts|python] [--preset P | --tools FILE.json ...] [--out FILE]",
		Short: "Generate TypeScript declarations or Python stubs for tools",
		Long: `Generate a typed SDK for tools: TypeScript declarations (--lang ts, the
default) or Python typing stubs (--lang python).

The tools come from a preset (--preset, default ptc: the tools a run_code
program may call) or from JSON files (--tools, repeatable) holding one
tool, an array of tools, or an MCP tools/list result.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if len(files) > 0 && c.Flags().Changed("preset") {
				return errors.New("use either --preset or --tools, not both")
			}
			if _, err := renderSDK(lang, nil, sdkgen.Options{}); err != nil {
				return err
			}
			var ts []sdkgen.Tool
			var err error
			if len(files) > 0 {
				ts, err = toolsFromFiles(files)
			} else {
				ts, err = toolsFromPreset(home, preset)
			}
			if err != nil {
				return err
			}
			text, err := renderSDK(lang, ts, sdkgen.Options{Compact: compact})
			if err != nil {
				return err
			}
			if out == "" {
				_, err = fmt.Fprint(c.OutOrStdout(), text)
				return err
			}
			if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
				return fmt.Errorf("cannot write the SDK: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&lang, "lang", "ts", "output language: ts or python")
	cmd.Flags().StringVar(&preset, "preset", "ptc", "preset whose tools to generate for")
	cmd.Flags().StringArrayVar(&files, "tools", nil, "JSON file with tool definitions (repeatable)")
	cmd.Flags().StringVar(&out, "out", "", "write to this file instead of standard output")
	cmd.Flags().StringVar(&home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	cmd.Flags().BoolVar(&compact, "compact", false, "TypeScript only: render the compact section used in the run_code prompt")
	return cmd
}

func renderSDK(lang string, ts []sdkgen.Tool, opts sdkgen.Options) (string, error) {
	switch strings.ToLower(lang) {
	case "ts", "typescript":
		return sdkgen.TypeScript(ts, opts)
	case "python", "py":
		return sdkgen.Python(ts, opts)
	}
	return "", fmt.Errorf("unknown language %q: use ts or python", lang)
}

func toolsFromFiles(files []string) ([]sdkgen.Tool, error) {
	var all []sdkgen.Tool
	seen := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("cannot read tool file: %w", err)
		}
		ts, err := sdkgen.ParseTools(data, f)
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			if prev, ok := seen[t.Name]; ok {
				return nil, fmt.Errorf("%s: tool %q is already defined in %s; tool names must be unique", f, t.Name, prev)
			}
			seen[t.Name] = f
		}
		all = append(all, ts...)
	}
	return all, nil
}

// toolsFromPreset converts the preset's program-callable tools (every
// tool but run_code) into sdkgen input.
func toolsFromPreset(home, preset string) ([]sdkgen.Tool, error) {
	set, err := loadPresets(home)
	if err != nil {
		return nil, err
	}
	p, err := set.Get(preset)
	if err != nil {
		return nil, err
	}
	reg, err := harness.Toolset(harness.ToolsetConfig{Preset: p})
	if err != nil {
		return nil, err
	}
	return specsToSDK(reg.ProgramSpecs()), nil
}

func specsToSDK(specs []tools.Spec) []sdkgen.Tool {
	out := make([]sdkgen.Tool, len(specs))
	for i, s := range specs {
		out[i] = sdkgen.Tool{Name: s.Name, Description: s.Description, InputSchema: s.InputSchema, OutputSchema: s.OutputSchema}
	}
	return out
}
