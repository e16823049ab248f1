package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Confiner runs a confined stdio server (Server.Confined) until it ends
// or ctx does. harness gives one on bubblewrap (sandbox/hostexec); this
// package knows nothing of how.
type Confiner interface {
	// Run starts the program and returns when it ended (ctx's end kills
	// it). An error means it could not run confined at all.
	Run(ctx context.Context, p Program) error
}

// Program is one confined server process, from its definition expanded:
// its environment is Env alone (nothing of ptc's), its working directory
// Dir, inside Workspace.
type Program struct {
	Server    string // the server's name
	Command   string
	Args      []string
	Env       map[string]string
	Dir       string
	Workspace string
	Network   bool

	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// errNoConfiner stops a confined server when the Manager has no Confiner.
var errNoConfiner = errors.New("it must run confined and this ptc cannot confine it (host programs need bubblewrap)")

// stopGrace is how long a confined server has to exit once its stdin
// closed before it is killed.
const stopGrace = 2 * time.Second

// confinedTransport starts the server through the Confiner and talks to
// it over two pipes, as the SDK's CommandTransport does with a command.
type confinedTransport struct{ s *server }

func (t *confinedTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	c := t.s.cfg
	// The program outlives the connect call: its own context ends when
	// the connection closes.
	runCtx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		err := t.s.opts.Confine.Run(runCtx, Program{Server: c.Name, Command: c.Command, Args: c.Args, Env: c.Env,
			Dir: c.Cwd, Workspace: t.s.opts.Workspace, Network: c.Network, Stdin: inR, Stdout: outW, Stderr: t.s.logWriter()})
		if err != nil {
			t.s.logf("the confined server could not run: %v", err)
		}
		inR.Close()
		outW.Close() // the connection reads its end
		done <- err
	}()
	conn, err := (&sdk.IOTransport{Reader: outR, Writer: &stopOnClose{w: inW, done: done, cancel: cancel}}).Connect(ctx)
	if err != nil {
		cancel()
		outR.Close()
		inW.Close()
		return nil, fmt.Errorf("connecting to the confined server: %w", err)
	}
	return conn, nil
}

// stopOnClose is the server's stdin: closing it ends the server, killed
// after stopGrace if it does not exit by itself.
type stopOnClose struct {
	w      *os.File
	done   chan error
	cancel context.CancelFunc
	once   sync.Once
}

func (s *stopOnClose) Write(p []byte) (int, error) { return s.w.Write(p) }

func (s *stopOnClose) Close() error {
	s.once.Do(func() {
		_ = s.w.Close()
		t := time.NewTimer(stopGrace)
		defer t.Stop()
		select {
		case <-s.done:
		case <-t.C:
			s.cancel()
			<-s.done
		}
		s.cancel()
	})
	return nil
}
