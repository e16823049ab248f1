package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// runFlags are the flags shared by `ptc run` and interactive `ptc`
// (DESIGN.md §11).
type runFlags struct {
	settings session.Settings
	home     string
	resume   string
	output   string
	// cont is -c/--continue: resume the latest session of the workspace.
	cont bool
	// noTitle is --no-title: no model title after the first turn.
	noTitle bool
	// given lists the settings flags the user typed (they override the
	// recorded settings on resume).
	given []session.Field
	mcp   mcpFlags

	// agentic are plan mode's and goals' flags (agentic.go).
	agentic agenticFlags
	// fleet are ptc run's --nats flags (fleetclient.go).
	fleet fleetRunFlags
	// schema is ptc run's --output-schema (outputschema.go).
	schema schemaFlags
	// answerer and note are how the session talks to the user besides
	// its events (not flags): approvals and questions (nil: the
	// terminal's line prompt) and one-line notes (nil: stderr). The TUI
	// sets both so nothing is written under its screen.
	answerer tools.Answerer
	note     func(string)
}

// notef prints a note about the session: through f.note, else on stderr.
func (f *runFlags) notef(format string, args ...any) {
	if f.note != nil {
		f.note(fmt.Sprintf(format, args...))
		return
	}
	stderrNote(format, args...)
}

// settingFlags names the flag of each setting.
var settingFlags = map[string]session.Field{
	"preset": session.FieldPreset, "model": session.FieldModel, "base-url": session.FieldBaseURL,
	"workspace": session.FieldWorkspace, "sandbox": session.FieldSandbox, "approval": session.FieldApproval,
	"max-steps": session.FieldMaxSteps, "context-window": session.FieldContextWindow, "no-compact": session.FieldNoCompact,
	"network": session.FieldNetwork, "web-fetch": session.FieldWebFetch,
}

func (f *runFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	s := &f.settings
	fl.StringVar(&s.Preset, "preset", "", "preset: ptc (default), standard or minimal")
	fl.StringVar(&s.Model, "model", "", "model name (default deepseek-v4-flash with DEEPSEEK_API_KEY), or script:FILE to replay scripted replies")
	fl.StringVar(&s.BaseURL, "base-url", "", "OpenAI-compatible API root, e.g. http://127.0.0.1:8000/v1")
	fl.StringVar(&s.Workspace, "workspace", "", "workspace directory (default: the current directory)")
	fl.StringVar(&f.home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	fl.StringVar(&s.Sandbox, "sandbox", "", "sandbox mode: read-only, workspace-write, git-write or danger-full-access (default: the preset's)")
	fl.BoolVar(&s.Network, "network", false, "let host programs the sandbox runs reach the network (off by default, or the preset's)")
	fl.BoolVar(&s.WebFetch, "web-fetch", false, "offer the web_fetch tool (off by default, or the preset's web_fetch: true); private and loopback addresses stay refused unless PTC_WEB_ALLOW_PRIVATE=1")
	fl.StringVar(&s.Approval, "approval", "", "approval policy: ask (default) or never")
	fl.IntVar(&s.MaxSteps, "max-steps", 0, "end a turn after this many model requests (0: the preset's budget)")
	fl.IntVar(&s.ContextWindow, "context-window", 0, "the model's context window in tokens (0: the model table's, see $PTC_HOME/models.yaml)")
	fl.BoolVar(&s.NoCompact, "no-compact", false, "never prune or compact the context automatically (ptc session compact still works)")
	fl.StringVar(&f.resume, "resume", "", "continue the session with this id (or a unique prefix of it); the flags given replace its recorded settings")
	fl.BoolVarP(&f.cont, "continue", "c", false, "continue the latest session of this workspace (the current directory or --workspace)")
	fl.BoolVar(&f.noTitle, "no-title", false, "do not ask the model for the session's title after the first turn (the listing shows the first prompt's first line)")
	f.mcp.register(cmd)
	f.agentic.register(cmd, f)
	cmd.PreRun = func(c *cobra.Command, _ []string) {
		f.given = nil
		for name, field := range settingFlags {
			if c.Flags().Changed(name) {
				f.given = append(f.given, field)
			}
		}
	}
}

// app is one wired session and the home it belongs to.
type app struct {
	home     *harness.Home
	sess     *harness.Session
	homeFlag string
}

// openApp opens the home and creates or resumes the session (repairing an
// interrupted turn), with the terminal as the answerer. obs sees every
// event. The caller closes the app.
func openApp(ctx context.Context, f *runFlags, obs func(session.Event)) (*app, error) {
	if err := checkOutput(f.output); err != nil {
		return nil, err
	}
	if err := harness.CheckSettings(f.settings); err != nil {
		return nil, err
	}
	retry, err := testRetry()
	if err != nil {
		return nil, err
	}
	home, err := openHome(f.home)
	if err != nil {
		return nil, err
	}
	// A cold first compile of the sandbox says what the wait is, on
	// stderr headless and in the TUI.
	home.SetNotice(func(msg string) { f.notef("ptc: %s", termsafe.String(msg)) })
	ucfg, err := harness.LoadUserConfig(home.Dir())
	if err == nil && f.cont {
		err = f.continueLatest(ctx, home)
	}
	if err != nil {
		home.Close()
		return nil, err
	}
	opts := harness.Options{
		Resume: f.resume, Settings: f.settings, Override: f.given,
		Answerer: f.answerer, Observer: obs, Retry: retry,
		Getenv: ucfg.Getenv(os.Getenv, f.settings.BaseURL), OutputSchema: f.schema.schema,
	}
	if f.resume == "" && opts.Settings.Model == "" && opts.Settings.BaseURL == "" && ucfg.Active(os.Getenv) {
		opts.Settings.Model = ucfg.Model // the config's default model; --model overrides
	}
	if opts.Answerer == nil {
		opts.Answerer = newTerminalAnswerer()
	}
	if _, headless := opts.Answerer.(headlessAnswerer); headless {
		opts.Answerer = nil // no front end: approvals fail closed without an ask
	}
	f.agentic.apply(&opts)
	opts.NoTitle = f.noTitle
	if os.Getenv("PTC_TEST_TOOLS") != "" {
		opts.Toolset = sleepToolset
	}
	opts.MCP = &harness.MCPOptions{Configs: f.mcp.configs,
		Notify: func(s string) { f.notef("ptc: note: %s", termsafe.String(s)) }}
	sess, err := harness.Open(ctx, home, opts)
	if err != nil {
		home.Close()
		if errors.Is(err, session.ErrNotFound) {
			return nil, unknownSession(f.resume, home.Catalog().Dir())
		}
		return nil, err
	}
	showSettings(opts.Answerer, sess.Settings)
	for _, w := range sess.Warnings() {
		f.notef("ptc: warning: %s", termsafe.String(w))
	}
	for _, n := range sess.Notices() {
		f.notef("ptc: note: %s", termsafe.String(n))
	}
	notices, err := sess.StartMCP(ctx)
	if err != nil {
		return nil, errors.Join(err, sess.Discard(), home.Close())
	}
	for _, n := range notices {
		f.notef("ptc: note: %s", termsafe.String(n))
	}
	return &app{home: home, sess: sess, homeFlag: f.home}, nil
}

// ID is the session id.
func (a *app) ID() string { return a.sess.ID() }

// Session and Home make an app the harness.Seat a front end holds.
func (a *app) Session() *harness.Session { return a.sess }

// Home is the home the session was opened in.
func (a *app) Home() *harness.Home { return a.home }

// resumeHint is a command that continues the session as printed, from
// any directory: the recorded settings bring back preset, model and
// workspace, and --home is repeated when it was given.
func (a *app) resumeHint() string {
	hint := "ptc --resume " + a.ID()
	if a.homeFlag != "" {
		hint += " --home " + shellQuote(a.home.Dir())
	}
	return hint
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Close makes the log durable, stops the MCP servers and releases the
// session and the home. A session this app created that never had a
// turn (an interactive session left before its first prompt) is not
// kept.
func (a *app) Close() error {
	return errors.Join(a.sess.Discard(), a.home.Close())
}

// testRetry is the hidden PTC_TEST_RETRY_DELAY: retries with a fixed
// short delay, so tests exercise them without waiting.
func testRetry() (agent.Retrier, error) {
	d := os.Getenv("PTC_TEST_RETRY_DELAY")
	if d == "" {
		return nil, nil
	}
	delay, err := time.ParseDuration(d)
	if err != nil {
		return nil, fmt.Errorf("PTC_TEST_RETRY_DELAY: %w", err)
	}
	rp := llm.DefaultRetryPolicy()
	rp.Base, rp.Max, rp.Jitter = delay, delay, 0
	return rp, nil
}

// sleepToolset is the hidden PTC_TEST_TOOLS toolset: a single slow test
// tool, so the crash tests can kill a run mid-tool.
func sleepToolset(harness.ToolsetConfig) (*tools.Registry, error) {
	return tools.NewRegistry(tools.PresentNative, sleepTool())
}

// continueLatest makes -c resume the workspace's most recently updated
// top-level session that no process is running.
func (f *runFlags) continueLatest(ctx context.Context, home *harness.Home) error {
	if f.resume != "" {
		return errors.New("-c/--continue and --resume both name a session: give one")
	}
	ws := f.settings.Workspace
	if ws == "" {
		ws = "."
	}
	abs, err := filepath.Abs(ws)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		real = abs
	}
	list, err := home.Sessions().List(ctx, session.ListOptions{})
	if err != nil {
		return err
	}
	for _, s := range list { // most recently updated first
		if w := s.Settings.Workspace; (w == abs || w == real) && s.Header.Depth == 0 && !s.Owner.Live {
			f.resume = s.Header.ID
			return nil
		}
	}
	return fmt.Errorf("no session to continue in %s (ptc sessions lists them all)", abs)
}

func checkOutput(output string) error {
	switch output {
	case "", "text", "json", "stream-json":
		return nil
	}
	return fmt.Errorf("unknown output format %q: use text, json or stream-json", output)
}

func unknownSession(id, dir string) error {
	return fmt.Errorf("no session %q in %s; list the sessions with `ptc sessions` (and check --home / $PTC_HOME)", id, dir)
}
