package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/mcp"
	"github.com/ptc-dev/ptc/runtime/tools"
)

func newToolsCmd() *cobra.Command {
	var homeFlag, preset, output, workspace string
	var mf mcpFlags
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "Show a preset's tools with their schemas, as the model sees them (MCP servers' tools included)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if output != "" && output != "text" && output != "json" {
				return fmt.Errorf("unknown output format %q: use text or json", output)
			}
			home, err := harness.OpenHome(homeFlag)
			if err != nil {
				return err
			}
			defer home.Close()
			set, err := home.Presets()
			if err != nil {
				return err
			}
			p, err := set.Get(preset)
			if err != nil {
				return err
			}
			ws, err := harness.ResolveWorkspace(workspace, nil)
			if err != nil {
				return err
			}
			m, err := startMCP(c.Context(), home, harness.MCPOptions{Workspace: ws, Configs: mf.configs, Approvals: terminalApprovals()}, stderrNote)
			if err != nil {
				return err
			}
			var extra []tools.Tool
			var servers []mcp.Status
			if m != nil {
				defer m.Close()
				extra, servers = m.Tools(), m.Servers()
			}
			reg, err := harness.Toolset(harness.ToolsetConfig{Preset: p, Workspace: ws, Extra: extra, Skills: home.Skills(ws)})
			if err != nil {
				return err
			}
			view := toolsView{
				Preset: p.ID, Presentation: string(reg.Presentation()),
				Wire: specViews(reg, reg.WireToolSpecs()), MCPServers: servers,
			}
			if reg.Presentation() != tools.PresentNative {
				view.Program = specViews(reg, reg.ProgramSpecs())
			}
			if output == "json" {
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(view)
			}
			printToolsText(c.OutOrStdout(), view)
			return nil
		},
	}
	cmd.Flags().StringVar(&homeFlag, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	cmd.Flags().StringVar(&preset, "preset", "ptc", "preset whose tools to show")
	cmd.Flags().StringVar(&output, "output", "text", "output format: text or json")
	cmd.Flags().StringVar(&workspace, "workspace", "", "workspace whose .mcp.json to read (default: the current directory)")
	mf.register(cmd)
	return cmd
}

// toolsView is the output of `ptc tools --output json`: the wire tools
// (sorted by name), under ptc/both the tools programs may call, and the
// MCP servers with their state. An MCP tool names its server.
type toolsView struct {
	Preset       string       `json:"preset"`
	Presentation string       `json:"presentation"`
	Wire         []specView   `json:"wire"`
	Program      []specView   `json:"program,omitempty"`
	MCPServers   []mcp.Status `json:"mcpServers,omitempty"`
}

type specView struct {
	tools.Spec
	Server string `json:"server,omitempty"`
}

func specViews(reg *tools.Registry, specs []tools.Spec) []specView {
	out := make([]specView, 0, len(specs))
	for _, s := range specs {
		v := specView{Spec: s}
		if t, ok := reg.Lookup(s.Name); ok {
			v.Server, _ = mcp.ServerOf(t)
		}
		out = append(out, v)
	}
	return out
}

func printToolsText(w io.Writer, v toolsView) {
	fmt.Fprintf(w, "preset %s, presentation %s\n\nOn the wire (the model calls these directly):\n", v.Preset, v.Presentation)
	printSpecList(w, v.Wire)
	if v.Program != nil {
		fmt.Fprintln(w, "\nIn run_code programs (await tools.<name>(args)):")
		printSpecList(w, v.Program)
	}
	if len(v.MCPServers) > 0 {
		fmt.Fprintln(w, "\nMCP servers (your own programs, run outside the sandbox):")
		for _, s := range v.MCPServers {
			line := fmt.Sprintf("  %s  [%s, %s] %s, %d tools", s.Name, s.Source, s.Transport, s.State, s.Tools)
			if s.Error != "" {
				line += ": " + s.Error
			}
			if s.Log != "" {
				line += "\n      log: " + s.Log
			}
			fmt.Fprintln(w, termsafe.String(line))
		}
	}
}

func printSpecList(w io.Writer, specs []specView) {
	if len(specs) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, s := range specs {
		summary, _, _ := strings.Cut(s.Description, "\n")
		from := ""
		if s.Server != "" {
			from = "  [MCP server " + s.Server + "]"
		}
		fmt.Fprintln(w, termsafe.String(fmt.Sprintf("  %s(%s)%s\n      %s", s.Name, argSummary(s.InputSchema), from, clip(summary, 300))))
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
