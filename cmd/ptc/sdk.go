package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/shell"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/mcp"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/sdkgen"
)

func newSdkCmd() *cobra.Command {
	var (
		lang, preset, out, home string
		files, mcpCmds, mcpURLs []string
		mcpNames, mcpHeaders    []string
		compact                 bool
		mf                      mcpFlags
	)
	cmd := &cobra.Command{
		Use:   "sdk [--lang ts|python] [--preset P | --tools FILE.json ... | --mcp 'COMMAND ARGS' | --mcp-url URL] [--out FILE]",
		Short: "Generate TypeScript declarations or Python stubs for tools",
		Long: `Generate a typed SDK for tools: TypeScript declarations (--lang ts, the
default) or Python typing stubs (--lang python).

The tools come from a preset (--preset, default ptc: the tools a run_code
program may call), from JSON files (--tools, repeatable) holding one tool,
an array of tools, or an MCP tools/list result, or straight from live MCP
servers: --mcp 'COMMAND ARGS' starts a stdio server, --mcp-url URL connects
to a streamable HTTP one (--mcp-header 'Name: value' adds a header), and
--mcp-config FILE starts every server of a configuration file. MCP tools
are named as run_code programs see them, mcp__<server>__<tool>; the server
name is --mcp-name (repeatable, in the order of the servers), else
server, server2, ... Without --preset, only the named sources are used.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if len(files) > 0 && c.Flags().Changed("preset") {
				return errors.New("use either --preset or --tools, not both")
			}
			if _, err := renderSDK(lang, nil, sdkgen.Options{}); err != nil {
				return err
			}
			servers, err := sdkServers(mcpCmds, mcpURLs, mcpNames, mcpHeaders)
			if err != nil {
				return err
			}
			fromMCP := len(servers) > 0 || len(mf.configs) > 0
			var ts []sdkgen.Tool
			if len(files) > 0 {
				ts, err = toolsFromFiles(files)
			} else if !fromMCP || c.Flags().Changed("preset") {
				ts, err = toolsFromPreset(home, preset)
			}
			if err != nil {
				return err
			}
			if fromMCP {
				more, err := toolsFromMCP(c.Context(), home, servers, mf.configs)
				if err != nil {
					return err
				}
				ts = append(ts, more...)
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
	cmd.Flags().StringArrayVar(&mcpCmds, "mcp", nil, "start this stdio MCP server ('COMMAND ARGS', shell quoting) and use its tools (repeatable)")
	cmd.Flags().StringArrayVar(&mcpURLs, "mcp-url", nil, "connect to this streamable HTTP MCP server and use its tools (repeatable)")
	cmd.Flags().StringArrayVar(&mcpNames, "mcp-name", nil, "name of the --mcp/--mcp-url servers, in order (repeatable)")
	cmd.Flags().StringArrayVar(&mcpHeaders, "mcp-header", nil, "HTTP header 'Name: value' for the --mcp-url servers (repeatable)")
	cmd.Flags().StringVar(&out, "out", "", "write to this file instead of standard output")
	cmd.Flags().StringVar(&home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	cmd.Flags().BoolVar(&compact, "compact", false, "TypeScript only: render the compact section used in the run_code prompt")
	mf.register(cmd)
	return cmd
}

// sdkServers turns --mcp and --mcp-url into server definitions.
func sdkServers(cmds, urls, names, headers []string) ([]mcp.Server, error) {
	hdr := map[string]string{}
	for _, h := range headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("--mcp-header %q: use 'Name: value'", h)
		}
		hdr[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	var out []mcp.Server
	name := func() string {
		i := len(out)
		if i < len(names) {
			return names[i]
		}
		if i == 0 {
			return "server"
		}
		return fmt.Sprintf("server%d", i+1)
	}
	for _, c := range cmds {
		words, err := shell.Fields(c, os.Getenv)
		if err != nil || len(words) == 0 {
			return nil, fmt.Errorf("--mcp %q: give a command line such as 'npx -y @modelcontextprotocol/server-memory' (%v)", c, err)
		}
		out = append(out, mcp.Server{Name: name(), Source: mcp.SourceFlag, Command: words[0], Args: words[1:]})
	}
	for _, u := range urls {
		out = append(out, mcp.Server{Name: name(), Source: mcp.SourceFlag, Type: "http", URL: u, Headers: hdr})
	}
	if len(names) > len(out) {
		return nil, fmt.Errorf("%d --mcp-name given for %d MCP servers", len(names), len(out))
	}
	return out, nil
}

// toolsFromMCP starts the servers (and those of the --mcp-config files),
// lists their tools and stops them. A server that does not start is an
// error: the SDK would silently lack its tools.
func toolsFromMCP(ctx context.Context, homeFlag string, servers []mcp.Server, configs []string) ([]sdkgen.Tool, error) {
	home, err := harness.OpenHome(homeFlag)
	if err != nil {
		return nil, err
	}
	defer home.Close()
	m, notices, err := home.StartMCP(ctx, harness.MCPOptions{Servers: servers, Configs: configs, NoConfigFiles: true})
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errors.New("no MCP server to generate an SDK for")
	}
	defer m.Close()
	for _, s := range m.Servers() {
		if s.State != mcp.StateUp {
			return nil, fmt.Errorf("MCP server %s did not start: %s (%s)", termsafe.Line(s.Name), termsafe.String(s.Error), termsafe.String(strings.Join(notices, "; ")))
		}
	}
	var specs []tools.Spec
	for _, t := range m.Tools() {
		specs = append(specs, t.Spec())
	}
	return specsToSDK(specs), nil
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
