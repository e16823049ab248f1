package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session/natsstore"
	"github.com/ptc-dev/ptc/serve"
	"github.com/ptc-dev/ptc/worker"
)

// api is what ptc serve serves: a home's sessions (serve.Server) or a
// fleet's (serve.Fleet).
type api interface {
	http.Handler
	HTTPServer(addr string) *http.Server
	Close() error
}

// serveFleetFlags are ptc serve's flags for a fleet.
type serveFleetFlags struct {
	fleetOptions
	pool, listen, store string
}

func (f *serveFleetFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.url, "nats", "", "serve the sessions of a fleet instead of the home's: those on this NATS JetStream server (nats://HOST:PORT), or \"embedded\" to run one in this process; prompts become turns for `ptc worker` processes")
	fl.StringVar(&f.pool, "pool", worker.DefaultPool, "with --nats: the pool of workers prompts are queued for")
	fl.StringVar(&f.listen, "nats-listen", "127.0.0.1:4222", "with --nats embedded: the address the JetStream server listens on, for the workers (port 0: any free port)")
	fl.StringVar(&f.store, "nats-store", "", "with --nats embedded: the directory of the server's files (default: nats/ in the home)")
	fl.IntVar(&f.replicas, "replicas", 1, "with --nats: replicas of the streams and buckets this command makes (3 on a cluster)")
	fl.DurationVar(&f.leaseTTL, "lease-ttl", 15*time.Second, "with --nats: how long a session stays taken after its worker stops renewing its lease (set when the lease bucket is made)")
}

// fleetAPI connects to (or, for "embedded", starts) the fleet's server
// and returns the API over it; stop disconnects (and stops the embedded
// server) once the HTTP server is done.
func fleetAPI(c *cobra.Command, home *harness.Home, f serveFleetFlags, cfg serve.FleetConfig) (api, func(), error) {
	if err := worker.CheckPool(f.pool); err != nil {
		return nil, nil, err
	}
	stops := []func(){}
	stop := func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	if f.url == "embedded" {
		host, port, err := splitHostPort(f.listen)
		if err != nil {
			return nil, nil, fmt.Errorf("--nats-listen: %w", err)
		}
		dir := f.store
		if dir == "" {
			dir = filepath.Join(home.Dir(), "nats")
		}
		ns, err := natsstore.StartServer(natsstore.ServerOptions{StoreDir: dir, Host: host, Port: port})
		if err != nil {
			return nil, nil, err
		}
		stops = append(stops, func() { ns.Shutdown(); ns.WaitForShutdown() })
		f.url = ns.ClientURL()
		fmt.Fprintf(c.ErrOrStderr(), "ptc serve: JetStream server on %s storing in %s; start workers with `ptc worker --nats %s`\n", f.url, termsafe.String(dir), f.url)
	}
	ctx, cancel := context.WithTimeout(c.Context(), 30*time.Second)
	defer cancel()
	fl, err := dialFleet(ctx, f.fleetOptions, fmt.Sprintf("ptc serve pid %d", os.Getpid()), nil)
	if err != nil {
		stop()
		return nil, nil, err
	}
	stops = append(stops, fl.Close)
	cfg.Catalog, cfg.JS, cfg.Pool, cfg.Home = fl.cat, fl.js, f.pool, home
	srv, err := serve.NewFleet(cfg)
	if err != nil {
		stop()
		return nil, nil, err
	}
	fmt.Fprintf(c.ErrOrStderr(), "ptc serve: serving the sessions on %s; prompts go to the workers of pool %s; Ctrl-C stops\n", f.url, f.pool)
	return srv, stop, nil
}
