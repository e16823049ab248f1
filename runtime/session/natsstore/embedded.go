package natsstore

import (
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// ServerOptions configure an embedded JetStream server (ptc nats
// embedded, and the tests).
type ServerOptions struct {
	// StoreDir holds the server's JetStream files.
	StoreDir string
	// Host and Port to listen on; Port 0 picks a free one, -1 listens
	// nowhere (an in-process server for tests, reached with InProcess).
	Host string
	Port int
	// SyncAlways makes the server fsync every write before acknowledging
	// it; by default it syncs every two minutes, so an acknowledged
	// append survives a killed server but not a power cut (on a cluster,
	// replication covers that).
	SyncAlways bool
	// MaxPayload is the largest message in bytes; default 8 MiB (the
	// store cuts larger events into parts anyway).
	MaxPayload int32
}

// StartServer starts an embedded JetStream server and waits until it
// takes connections. The caller shuts it down (Shutdown, then
// WaitForShutdown).
func StartServer(o ServerOptions) (*server.Server, error) {
	if o.MaxPayload <= 0 {
		o.MaxPayload = 8 << 20
	}
	opts := &server.Options{
		ServerName: "ptc-embedded",
		JetStream:  true,
		StoreDir:   o.StoreDir,
		Host:       o.Host,
		Port:       o.Port,
		MaxPayload: o.MaxPayload,
		NoSigs:     true,
		NoLog:      true,
	}
	if o.Port < 0 {
		opts.DontListen = true
		opts.Port = 0
	}
	if o.Port == 0 && !opts.DontListen {
		opts.Port = server.RANDOM_PORT
	}
	if o.SyncAlways {
		opts.SyncAlways = true
		opts.SyncInterval = time.Second
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("embedded JetStream server: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("embedded JetStream server in %s did not start within 30 s", o.StoreDir)
	}
	return ns, nil
}

// InProcess connects to an embedded server without a socket.
func InProcess(ns *server.Server, opts ...nats.Option) (*nats.Conn, error) {
	return nats.Connect("", append([]nats.Option{nats.InProcessServer(ns)}, opts...)...)
}
