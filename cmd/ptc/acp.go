package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/acp"
	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
)

// newAcpCmd is `ptc acp`: this home's sessions for an editor over the
// Agent Client Protocol on stdin/stdout (package acp).
func newAcpCmd() *cobra.Command {
	f := &runFlags{}
	var logPath string
	cmd := &cobra.Command{
		Use:   "acp [--home H] [session flags]",
		Short: "Serve ptc sessions to an editor over the Agent Client Protocol (stdin/stdout)",
		Long: `ptc acp is an ACP agent: an editor (Zed, JetBrains, Neovim, Emacs…) starts it and speaks
JSON-RPC on its stdin and stdout. Each session/new starts a session in the editor's
directory with the settings flags given here; session/load replays a stored session and
continues it. Approvals, plans and questions are put to the editor; everything runs in
ptc's own sandbox. Stdout carries only the protocol: logs go to --log
(default $PTC_HOME/logs/acp.log).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runAcp(c, f, logPath) },
	}
	f.register(cmd)
	cmd.Flags().StringVar(&logPath, "log", "", "log file (default: $PTC_HOME/logs/acp.log)")
	return cmd
}

func runAcp(c *cobra.Command, f *runFlags, logPath string) error {
	if f.resume != "" {
		return errors.New("ptc acp takes no --resume: the editor opens a stored session with session/load")
	}
	if err := harness.CheckSettings(f.settings); err != nil {
		return err
	}
	home, err := harness.OpenHome(f.home)
	if err != nil {
		return err
	}
	defer home.Close()
	if logPath == "" {
		logPath = filepath.Join(home.Dir(), "logs", "acp.log")
	}
	if err := os.MkdirAll(filepath.Dir(logPath), 0o700); err != nil {
		return err
	}
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("the ACP log: %w", err)
	}
	defer logFile.Close()
	out, err := acp.ClaimStdout(logFile)
	if err != nil {
		return err
	}
	defer out.Close()
	logf := func(format string, args ...any) {
		fmt.Fprintf(logFile, "%s %s\n", time.Now().UTC().Format(time.RFC3339), termsafe.Line(fmt.Sprintf(format, args...)))
	}
	slog.SetDefault(slog.New(acp.LogHandler(logf)))
	retry, err := testRetry()
	if err != nil {
		return err
	}
	opts := harness.Options{Settings: f.settings, Override: f.given, Retry: retry}
	f.agentic.apply(&opts)
	if os.Getenv("PTC_TEST_TOOLS") != "" {
		opts.Toolset = sleepToolset
	}
	if file, ok := strings.CutPrefix(opts.Settings.Model, "script:"); ok && !filepath.IsAbs(file) {
		abs, err := filepath.Abs(file)
		if err != nil {
			return err
		}
		opts.Settings.Model = "script:" + abs
	}
	logf("ptc acp %s: serving the sessions of %s (pid %d)", buildVersion(), home.Dir(), os.Getpid())
	// An editor stops its agent with SIGTERM: the sessions close cleanly.
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = acp.Serve(ctx, acp.Config{Home: home, Options: opts, MCPConfigs: f.mcp.configs, Version: acpVersion(), Logf: logf}, c.InOrStdin(), out)
	logf("ptc acp: stopped (%v)", err)
	return err
}

// acpVersion is the version an editor shows: the module version alone
// ("(devel)" for a build from a checkout).
func acpVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
