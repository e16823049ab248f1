package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/serve"
)

// newServeCmd is `ptc serve`: the home's sessions over HTTP (package
// serve), with the web UI at /.
func newServeCmd() *cobra.Command {
	var home, addr string
	var allow []string
	var heartbeat time.Duration
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT] [--allow-host NAME]...",
		Short: "Serve this home's sessions over HTTP with a live event stream and a web UI",
		Long: `ptc serve runs sessions for HTTP clients: the web UI at /, ptc attach ID --serve URL,
ptc --serve URL, or any client of the API under /v1 (see /v1/openapi.json).

It listens on 127.0.0.1:4517 unless --addr says otherwise. Every request needs the token in
$PTC_HOME/serve.token (made on first start, mode 0600): as "Authorization: Bearer TOKEN", or
opened once in a browser as the printed URL (/?token=…), which keeps it in a cookie. Only
requests naming this server in their Host header are answered (loopback names, the bound
address, and each --allow-host), and a browser may change something only from the server's
own page.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return serveHome(c, home, addr, allow, heartbeat) },
	}
	fl := cmd.Flags()
	fl.StringVar(&home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	fl.StringVar(&addr, "addr", serve.DefaultAddr, "address to listen on, HOST:PORT (a port of 0 picks a free one)")
	fl.StringArrayVar(&allow, "allow-host", nil, "a further host name clients may reach the server by (repeatable)")
	fl.DurationVar(&heartbeat, "heartbeat", 15*time.Second, "how often an idle event stream gets a heartbeat")
	_ = fl.MarkHidden("heartbeat")
	return cmd
}

func serveHome(c *cobra.Command, homeFlag, addr string, allow []string, heartbeat time.Duration) error {
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
	srv, err := serve.New(serve.Config{
		Home: home, Token: token, Addr: bound.String(), AllowHosts: allow, Heartbeat: heartbeat, Options: opts,
		Logf: func(format string, args ...any) {
			fmt.Fprintln(errw, "ptc serve:", termsafe.String(fmt.Sprintf(format, args...)))
		},
	})
	if err != nil {
		ln.Close()
		return err
	}
	if created {
		fmt.Fprintf(errw, "ptc serve: made a new token in %s\n", home.Dir()+"/"+serve.TokenFile)
	}
	fmt.Fprintf(errw, "ptc serve: serving the sessions of %s; Ctrl-C stops\n", home.Dir())
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
