package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/cmd/ptc/tui"
	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/mcp"
)

// startMCP starts the run's MCP servers and gives the notices (skipped
// project servers, servers that did not start, later restarts) to note.
// It returns nil when no server runs.
func startMCP(ctx context.Context, home *harness.Home, o harness.MCPOptions, note func(string, ...any)) (*mcp.Manager, error) {
	o.Notify = func(s string) { note("ptc: note: %s", termsafe.String(s)) }
	m, notices, err := home.StartMCP(ctx, o)
	if err != nil {
		return nil, err
	}
	for _, n := range notices {
		note("ptc: note: %s", termsafe.String(n))
	}
	return m, nil
}

// stderrNote prints a note on stderr (commands without a TUI).
func stderrNote(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

// mcpFlags are the flags of commands that start MCP servers.
type mcpFlags struct {
	configs []string
}

func (f *mcpFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&f.configs, "mcp-config", nil,
		"MCP configuration file ({\"mcpServers\": {...}}), besides $PTC_HOME/mcp.json and the workspace's .mcp.json (repeatable)")
}

// newMcpCmd is `ptc mcp`: the configured servers and the approval of a
// project's servers.
func newMcpCmd() *cobra.Command {
	var homeFlag, workspace string
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "List the configured MCP servers and approve a project's",
		Long: `MCP servers come from $PTC_HOME/mcp.json, the workspace's .mcp.json and
--mcp-config files, in the format {"mcpServers": {"name": {"command", "args",
"env"} | {"type": "http", "url", "headers"}}}. Your own servers run as your
programs. A server from a project's .mcp.json starts only after you approved
it (interactively, or with ptc mcp approve), and again whenever its definition
or a workspace file its command line names changes; a project's stdio server
runs confined (bubblewrap, the workspace read-only, no network and none of
your environment) unless its definition says "sandbox": "unconfined".`,
	}
	cmd.PersistentFlags().StringVar(&homeFlag, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	cmd.PersistentFlags().StringVar(&workspace, "workspace", "", "workspace directory (default: the current directory)")
	open := func() (*harness.Home, string, []mcp.Server, error) {
		ws, err := harness.ResolveWorkspace(workspace, nil)
		if err != nil {
			return nil, "", nil, err
		}
		home, err := harness.OpenHome(homeFlag)
		if err != nil {
			return nil, "", nil, err
		}
		servers, err := mcp.Load(mcp.Files{Home: home.Dir(), Workspace: ws})
		if err != nil {
			home.Close()
			return nil, "", nil, err
		}
		return home, ws, servers, nil
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List the configured servers and whether each may start",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			home, ws, servers, err := open()
			if err != nil {
				return err
			}
			defer home.Close()
			return printMCPList(c.OutOrStdout(), servers, ws, mcp.OpenTrust(home.Dir()))
		},
	}
	approve := &cobra.Command{
		Use:   "approve [NAME...]",
		Short: "Allow the project's servers (all, or those named) to start in this workspace",
		RunE: func(c *cobra.Command, names []string) error {
			return changeTrust(open, names, c.OutOrStdout(), true)
		},
	}
	revoke := &cobra.Command{
		Use:   "revoke [NAME...]",
		Short: "Withdraw the approval of the project's servers (all, or those named)",
		RunE: func(c *cobra.Command, names []string) error {
			return changeTrust(open, names, c.OutOrStdout(), false)
		},
	}
	cmd.AddCommand(list, approve, revoke)
	return cmd
}

func printMCPList(w io.Writer, servers []mcp.Server, ws string, trust *mcp.Trust) error {
	if len(servers) == 0 {
		fmt.Fprintln(w, "No MCP servers are configured.")
		return nil
	}
	for _, s := range servers {
		state := "starts"
		if s.Source == mcp.SourceProject {
			ok, err := trust.Approved(ws, s)
			if err != nil {
				return err
			}
			state = "needs approval (ptc mcp approve " + s.Name + ")"
			if ok {
				state = "approved"
			}
		}
		fmt.Fprintf(w, "%s  [%s, %s] %s\n    %s\n", termsafe.String(s.Name), s.Source, s.Transport(), termsafe.String(state), termsafe.String(s.Describe()))
		printMCPValues(w, "env", s.Env, s.Source == mcp.SourceProject)
		printMCPValues(w, "header", s.Headers, s.Source == mcp.SourceProject)
		if s.Confined() {
			net := "no network"
			if s.Network {
				net = "network on"
			}
			fmt.Fprintf(w, "    runs confined (workspace read-only, %s)\n", net)
		} else if s.Source == mcp.SourceProject && s.Transport() == "stdio" {
			fmt.Fprintln(w, "    runs UNCONFINED, as your own program with your environment")
		}
	}
	return nil
}

// printMCPValues lists a server's env or headers, sanitised. A project
// file's values are shown whole (they are what the user approves); a
// user file's literal values are masked (they may be keys), while a
// ${VAR} reference is shown.
func printMCPValues(w io.Writer, label string, m map[string]string, whole bool) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := m[k]
		if !whole && !strings.HasPrefix(v, "${") {
			v = "(set, not shown)"
		}
		fmt.Fprintf(w, "    %s %s=%s\n", label, termsafe.String(k), termsafe.String(v))
	}
}

func changeTrust(open func() (*harness.Home, string, []mcp.Server, error), names []string, w io.Writer, approve bool) error {
	home, ws, servers, err := open()
	if err != nil {
		return err
	}
	defer home.Close()
	trust := mcp.OpenTrust(home.Dir())
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	done := 0
	for _, s := range servers {
		if s.Source != mcp.SourceProject || len(want) > 0 && !want[s.Name] {
			continue
		}
		delete(want, s.Name)
		if approve {
			err = trust.Approve(ws, s)
		} else {
			err = trust.Revoke(ws, s.Name)
		}
		if err != nil {
			return err
		}
		verb := "approved"
		if !approve {
			verb = "revoked"
		}
		fmt.Fprintf(w, "%s %s: %s\n", verb, termsafe.String(s.Name), termsafe.String(s.Describe()))
		if approve {
			fmt.Fprintf(w, "%s\n", termsafe.String(s.ApprovalText(ws)))
		}
		done++
	}
	if len(want) > 0 {
		var missing []string
		for n := range want {
			missing = append(missing, n)
		}
		return fmt.Errorf("%s has no server named %s", ws+"/"+mcp.ProjectFile, strings.Join(missing, ", "))
	}
	if done == 0 {
		fmt.Fprintf(w, "%s/%s defines no servers.\n", ws, mcp.ProjectFile)
	}
	return nil
}

// The TUI's /mcp view reaches the session's servers through harness.Front.
var _ tui.MCPBackend = tuiBackend{}
