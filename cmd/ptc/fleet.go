package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/natsstore"
	"github.com/ptc-dev/ptc/worker"
)

// The fleet commands: sessions kept on a NATS JetStream server, turns
// run by `ptc worker` processes on any machine (package worker).

// fleet is a connection to a JetStream server and the sessions on it.
type fleet struct {
	nc  *nats.Conn
	js  jetstream.JetStream
	cat *natsstore.Catalog
}

// fleetOptions are the flags every fleet command shares.
type fleetOptions struct {
	url      string
	replicas int
	leaseTTL time.Duration
}

func (o *fleetOptions) register(cmd *cobra.Command, persistent bool) {
	fl := cmd.Flags()
	if persistent {
		fl = cmd.PersistentFlags()
	}
	fl.StringVar(&o.url, "nats", "", "keep the sessions on this NATS JetStream server (nats://HOST:PORT) instead of --home; workers (ptc worker) run the turns")
	fl.IntVar(&o.replicas, "replicas", 1, "with --nats: replicas of the streams and buckets this command makes (3 on a cluster)")
	fl.DurationVar(&o.leaseTTL, "lease-ttl", 15*time.Second, "with --nats: how long a session stays taken after its worker stops renewing its lease (set when the lease bucket is made)")
}

// dialFleet connects to the server at o.url; holder names this process
// in the leases it takes; lost is told of a lease lost.
func dialFleet(ctx context.Context, o fleetOptions, holder string, lost func(string, error)) (*fleet, error) {
	nc, err := nats.Connect(o.url, nats.Name(holder), nats.MaxReconnects(-1))
	if err != nil {
		return nil, fmt.Errorf("connect to the NATS server %s: %w (start one with `ptc nats embedded --store DIR`)", o.url, err)
	}
	cat, err := natsstore.OpenCatalog(ctx, nc, natsstore.CatalogConfig{
		Config: natsstore.Config{Replicas: o.replicas}, Holder: holder, LeaseTTL: o.leaseTTL, LeaseLost: lost,
	})
	if err != nil {
		nc.Close()
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	return &fleet{nc: nc, js: js, cat: cat}, nil
}

func (f *fleet) Close() { f.nc.Close() }

// resolve turns an id prefix into a session id of the fleet.
func (f *fleet) resolve(prefix string) (string, error) {
	id, err := f.cat.Resolve(prefix)
	if errors.Is(err, session.ErrNotFound) {
		return "", fmt.Errorf("no session %q on the NATS server; list them with `ptc sessions --nats URL`", prefix)
	}
	return id, err
}

// newNatsCmd is `ptc nats embedded`.
func newNatsCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "nats", Short: "Run a NATS JetStream server for a fleet of workers"}
	var store, listen string
	var syncAlways bool
	embedded := &cobra.Command{
		Use:   "embedded --store DIR [--listen HOST:PORT]",
		Short: "Run an embedded JetStream server (one machine's fleet) until interrupted; prints its URL",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if store == "" {
				return errors.New("ptc nats embedded needs --store DIR: where the server keeps the sessions")
			}
			host, port, err := splitHostPort(listen)
			if err != nil {
				return err
			}
			ns, err := natsstore.StartServer(natsstore.ServerOptions{StoreDir: store, Host: host, Port: port, SyncAlways: syncAlways})
			if err != nil {
				return err
			}
			fmt.Fprintln(c.OutOrStdout(), ns.ClientURL())
			fmt.Fprintf(c.ErrOrStderr(), "ptc: JetStream server on %s storing in %s; start workers with `ptc worker --nats %s`; Ctrl-C stops it\n", ns.ClientURL(), termsafe.String(store), ns.ClientURL())
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			<-ctx.Done()
			ns.Shutdown()
			ns.WaitForShutdown()
			return nil
		},
	}
	embedded.Flags().StringVar(&store, "store", "", "directory for the server's JetStream files")
	embedded.Flags().StringVar(&listen, "listen", "127.0.0.1:4222", "address to listen on (port 0: any free port)")
	embedded.Flags().BoolVar(&syncAlways, "sync-always", false, "fsync every write before acknowledging it (default: every 2 minutes; an acknowledged append then survives a killed server, not a power cut)")
	cmd.AddCommand(embedded)
	return cmd
}

func splitHostPort(addr string) (string, int, error) {
	var host string
	var port int
	for i := len(addr) - 1; i >= 0; i-- {
		if addr[i] == ':' {
			host = addr[:i]
			if _, err := fmt.Sscanf(addr[i+1:], "%d", &port); err != nil || port < 0 || port > 65535 {
				return "", 0, fmt.Errorf("--listen %q: the port must be a number from 0 to 65535", addr)
			}
			return host, port, nil
		}
	}
	return "", 0, fmt.Errorf("--listen %q: give HOST:PORT", addr)
}

// newWorkerCmd is `ptc worker`.
func newWorkerCmd() *cobra.Command {
	var o fleetOptions
	var home, pool, name string
	var concurrency int
	var ackWait time.Duration
	cmd := &cobra.Command{
		Use:   "worker --nats URL [--pool NAME] [--concurrency N]",
		Short: "Run queued turns of sessions kept on a NATS JetStream server until interrupted",
		Long: `Take turns from a pool's queue on a NATS JetStream server and run them, CONCURRENCY at a
time, against sessions whose logs live on that server. A worker that dies mid-turn stops
heartbeating; the turn goes to another worker of the pool, which repairs it as a local resume
does and carries on. A worker runs a session only where its workspace exists: pools bind
workspaces to machines. Models, presets and keys come from this machine (--home, environment).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if o.url == "" {
				return errors.New("ptc worker needs --nats URL: the JetStream server the sessions are on")
			}
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if name == "" {
				host, _ := os.Hostname()
				name = fmt.Sprintf("worker pid %d on %s", os.Getpid(), host)
			}
			var w *worker.Worker
			fl, err := dialFleet(ctx, o, name, func(id string, why error) {
				if w != nil {
					w.LeaseLost(id, why)
				}
			})
			if err != nil {
				return err
			}
			defer fl.Close()
			h, err := harness.OpenHomeOn(home, fl.cat)
			if err != nil {
				return err
			}
			defer h.Close()
			retry, err := testRetry()
			if err != nil {
				return err
			}
			w, err = worker.New(worker.Config{
				Name: name, Pool: pool, Concurrency: concurrency, AckWait: ackWait,
				JS: fl.js, Catalog: fl.cat, Home: h,
				Options: func(opts *harness.Options) {
					opts.Retry = retry
					if os.Getenv("PTC_TEST_TOOLS") != "" {
						opts.Toolset = sleepToolset
					}
				},
				Say: func(s string) { fmt.Fprintln(c.ErrOrStderr(), "ptc worker:", termsafe.String(s)) },
			})
			if err != nil {
				return err
			}
			return w.Run(ctx)
		},
	}
	o.register(cmd, false)
	cmd.Flags().StringVar(&home, "home", "", "ptc home for presets, models.yaml and spilled results (default: $PTC_HOME or ~/.ptc)")
	cmd.Flags().StringVar(&pool, "pool", worker.DefaultPool, "the pool whose turns this worker takes")
	cmd.Flags().StringVar(&name, "name", "", "the worker's name in leases and job events (default: its pid and host)")
	cmd.Flags().IntVar(&concurrency, "concurrency", 1, "turns run at once")
	cmd.Flags().DurationVar(&ackWait, "ack-wait", 30*time.Second, "how long without a heartbeat before a turn goes to another worker")
	return cmd
}
