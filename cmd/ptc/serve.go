package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/muesli/termenv"
	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/cmd/ptc/tui"
	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/serve"
	"github.com/ptc-dev/ptc/serve/client"
)

// newServeCmd is `ptc serve`: the home's sessions over HTTP (package
// serve), with the web UI at /.
func newServeCmd() *cobra.Command {
	var home, addr string
	var allow []string
	var heartbeat time.Duration
	var fleet serveFleetFlags
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT] [--allow-host NAME]... [--nats URL|embedded [--pool NAME]]",
		Short: "Serve this home's sessions over HTTP with a live event stream and a web UI",
		Long: `ptc serve runs sessions for HTTP clients: the web UI at /, ptc attach ID --serve URL,
ptc --serve URL, or any client of the API under /v1 (see /v1/openapi.json).

It listens on 127.0.0.1:4517 unless --addr says otherwise. Every request needs the token in
$PTC_HOME/serve.token (made on first start, mode 0600): as "Authorization: Bearer TOKEN", or
opened once in a browser as the printed URL (/?token=…), which keeps it in a cookie. Only
requests naming this server in their Host header are answered (loopback names, the bound
address, and each --allow-host), and a browser may change something only from the server's
own page.

With --nats URL (or --nats embedded, which runs a JetStream server in this process) it is a
front end for a fleet: it lists the sessions on that server, queues each prompt as a turn for a
worker of --pool (ptc worker), and streams a session's events as its worker appends them.
Cancel, approvals and questions, settings, compaction and deletion are not available there:
workers run turns headless.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return serveHome(c, home, addr, allow, heartbeat, fleet) },
	}
	fleet.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	fl.StringVar(&addr, "addr", serve.DefaultAddr, "address to listen on, HOST:PORT (a port of 0 picks a free one)")
	fl.StringArrayVar(&allow, "allow-host", nil, "a further host name clients may reach the server by (repeatable)")
	fl.DurationVar(&heartbeat, "heartbeat", 15*time.Second, "how often an idle event stream gets a heartbeat")
	_ = fl.MarkHidden("heartbeat")
	return cmd
}

func serveHome(c *cobra.Command, homeFlag, addr string, allow []string, heartbeat time.Duration, fleet serveFleetFlags) error {
	home, err := openHome(homeFlag)
	if err != nil {
		return err
	}
	defer home.Close()
	token, created, err := serve.LoadToken(home.Dir())
	if err != nil {
		return err
	}
	retry, err := testRetry()
	if err != nil {
		return err
	}
	opts := harness.Options{Retry: retry}
	if os.Getenv("PTC_TEST_TOOLS") != "" {
		opts.Toolset = sleepToolset
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	bound := ln.Addr().(*net.TCPAddr)
	errw := c.ErrOrStderr()
	if !bound.IP.IsLoopback() {
		fmt.Fprintf(errw, "ptc serve: warning: listening on %s, which other machines can reach; anyone with the token can run commands as you there (use --addr 127.0.0.1:PORT to stay local)\n", bound)
	}
	logf := func(format string, args ...any) {
		fmt.Fprintln(errw, "ptc serve:", termsafe.String(fmt.Sprintf(format, args...)))
	}
	var srv api
	if fleet.url != "" {
		var stopFleet func()
		srv, stopFleet, err = fleetAPI(c, home, fleet, serve.FleetConfig{Token: token, Addr: bound.String(), AllowHosts: allow, Heartbeat: heartbeat, Logf: logf})
		if err == nil {
			defer stopFleet()
		}
	} else {
		srv, err = serve.New(serve.Config{Home: home, Token: token, Addr: bound.String(), AllowHosts: allow, Heartbeat: heartbeat, Options: opts, Logf: logf})
		if err == nil {
			fmt.Fprintf(errw, "ptc serve: serving the sessions of %s; Ctrl-C stops\n", home.Dir())
		}
	}
	if err != nil {
		ln.Close()
		return err
	}
	if created {
		fmt.Fprintf(errw, "ptc serve: made a new token in %s\n", home.Dir()+"/"+serve.TokenFile)
	}
	fmt.Fprintf(c.OutOrStdout(), "http://%s/?token=%s\n", urlHost(bound), token)
	hs := srv.HTTPServer(bound.String())
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err = <-done:
	case <-ctx.Done():
	}
	// Streams end and sessions close first (a pending approval stays in
	// the log, pending again on the next start); then the listener.
	cerr := srv.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return errors.Join(err, cerr)
}

// urlHost is the host part of a URL that reaches addr: a loopback name
// for an unspecified address.
func urlHost(addr *net.TCPAddr) string {
	if addr.IP.IsUnspecified() {
		return fmt.Sprintf("127.0.0.1:%d", addr.Port)
	}
	return addr.String()
}

// followServed is `ptc attach ID --serve URL` and `ptc --serve URL`: a
// session of a ptc serve server, in the TUI on a terminal, else as
// printed events with lines read as prompts. Approvals and questions are
// put to this terminal too; whoever answers first wins.
func followServed(c *cobra.Command, homeFlag, serveURL, id, output string) error {
	if err := checkOutput(output); err != nil {
		return err
	}
	home, err := harness.OpenHome(homeFlag)
	if err != nil {
		return err
	}
	cl, err := client.New(serveURL, "", home.Dir())
	if err != nil {
		return err
	}
	if onTerminal() && (output == "" || output == "text") {
		return remoteTUI(c, cl, id, home.Dir())
	}
	ctx, stop := interruptContext(c.Context())
	defer stop()
	rec, err := cl.Get(ctx, id)
	if err != nil {
		return err
	}
	errw := c.ErrOrStderr()
	pr := newPrinter(output, c.OutOrStdout(), errw)
	pr.sessionID, pr.users = rec.ID, true
	if output == "text" {
		fmt.Fprintf(errw, "attached to session %s at %s; each line you type is a prompt; Ctrl-C leaves (the session goes on)\n", rec.ID, cl.URL())
	}
	note := func(s string) { fmt.Fprintln(errw, "ptc:", termsafe.String(s)) }
	ans := newTerminalAnswerer()
	showSettings(ans, func() session.Settings { return servedSettings(rec.Settings) })
	w := client.Watch(ctx, cl, rec.ID, ans, note)
	go promptLines(ctx, c.InOrStdin(), cl, rec.ID, note)
	err = cl.Events(ctx, rec.ID, -1, func(e session.Event) error {
		pr.event(e)
		w.Observe(e)
		return nil
	})
	pr.endReasoning()
	pr.breakLine()
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(errw, "(left session %s; follow it again with: ptc attach %s --serve %s)\n", rec.ID, rec.ID, cl.URL())
		return nil
	case errors.Is(err, client.ErrEnded):
		fmt.Fprintf(errw, "(session %s was deleted)\n", rec.ID)
		return nil
	}
	return err
}

// promptLines sends each line read from in as a prompt. Lines typed while
// a question waits for an answer go to that question instead (the line
// answerer reads the terminal then).
func promptLines(ctx context.Context, in io.Reader, cl *client.Client, id string, note func(string)) {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if _, err := cl.Prompt(ctx, id, text); err != nil {
			note("the prompt could not be sent: " + err.Error())
		}
	}
}

// remoteTUI runs the TUI over a served session.
func remoteTUI(c *cobra.Command, cl *client.Client, id, historyDir string) error {
	ans := tui.NewAnswerer(newTerminalAnswerer())
	rem, err := client.Attach(c.Context(), cl, id, ans, historyDir, func(s string) { ans.Notify(s) })
	if err != nil {
		return err
	}
	defer rem.Close()
	cfg := tui.Config{Profile: termenv.NewOutput(os.Stdout).EnvColorProfile()}
	if err := tui.Run(rem, cfg, ans); err != nil {
		return err
	}
	fmt.Fprintf(c.ErrOrStderr(), "left session %s (it goes on at the server); follow it again with: %s\n", rem.ID(), rem.ResumeHint())
	return nil
}

// interactiveServed is `ptc --serve URL`: a new session on the server
// with the flags' settings (or --resume ID there), then as attach.
func interactiveServed(c *cobra.Command, f *runFlags, serveURL string) error {
	if f.resume != "" {
		return followServed(c, f.home, serveURL, f.resume, "text")
	}
	home, err := harness.OpenHome(f.home)
	if err != nil {
		return err
	}
	cl, err := client.New(serveURL, "", home.Dir())
	if err != nil {
		return err
	}
	s := f.settings
	if s.Workspace, err = harness.ResolveWorkspace(s.Workspace, nil); err != nil {
		return err
	}
	if file, ok := strings.CutPrefix(s.Model, "script:"); ok && !filepath.IsAbs(file) {
		abs, err := filepath.Abs(file)
		if err != nil {
			return err
		}
		s.Model = "script:" + abs
	}
	rec, err := cl.Create(c.Context(), serve.Settings{
		Workspace: s.Workspace, Preset: s.Preset, Model: s.Model, BaseURL: s.BaseURL, Sandbox: s.Sandbox, Approval: s.Approval,
		MaxSteps: s.MaxSteps, ContextWindow: s.ContextWindow, NoCompact: s.NoCompact, Network: s.Network,
	})
	if err != nil {
		return err
	}
	return followServed(c, f.home, serveURL, rec.ID, "text")
}

func servedSettings(s serve.Settings) session.Settings {
	return session.Settings{Workspace: s.Workspace, Preset: s.Preset, Model: s.Model, Sandbox: s.Sandbox, Approval: s.Approval}
}
