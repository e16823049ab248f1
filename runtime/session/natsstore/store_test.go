package natsstore_test

import (
	"context"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/natsstore"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// startServer runs an in-process JetStream server for one test, storing
// in dir ("" for a temporary directory).
func startServer(t testing.TB, dir string) *server.Server {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	ns, err := natsstore.StartServer(natsstore.ServerOptions{StoreDir: dir, Port: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	return ns
}

func connect(t testing.TB, ns *server.Server, opts ...nats.Option) *nats.Conn {
	t.Helper()
	nc, err := natsstore.InProcess(ns, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func openStore(t testing.TB, nc *nats.Conn) *natsstore.Store {
	t.Helper()
	s, err := natsstore.Open(context.Background(), nc, natsstore.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T) session.Store {
		return openStore(t, connect(t, startServer(t, "")))
	})
}

func TestConformanceAcrossServerRestarts(t *testing.T) {
	// Each open is a new server on the same store directory: what was
	// acknowledged before a restart is there after it.
	sessiontest.RunPersistent(t, func(t *testing.T, dir string) session.Store {
		ns, err := natsstore.StartServer(natsstore.ServerOptions{StoreDir: dir, Port: -1})
		if err != nil {
			t.Fatal(err)
		}
		nc, err := natsstore.InProcess(ns)
		if err != nil {
			t.Fatal(err)
		}
		return &restartable{Store: openStore(t, nc), nc: nc, ns: ns}
	})
}

// restartable is a store whose Close also stops its server.
type restartable struct {
	*natsstore.Store
	nc *nats.Conn
	ns *server.Server
}

func (r *restartable) Close() error {
	err := r.Store.Close()
	r.nc.Close()
	r.ns.Shutdown()
	r.ns.WaitForShutdown()
	return err
}
