package sandbox

import (
	"bytes"
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// lockedBuffer is a Buffer safe to read while a background run writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitFor polls until cond holds or a minute passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func TestABackgroundServerIsReachableFromTheSessionsNextCallOnly(t *testing.T) {
	h := hostProgs(t)
	ws, _ := sandboxDir(t)
	session := "s-" + t.Name()
	defer h.EndSession(session)
	scope := Scope{Workspace: ws, Mode: WorkspaceWrite, Session: session}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var log lockedBuffer
	done := make(chan Outcome, 1)
	go func() {
		o, err := h.RunStream(ctx, scope, proto.Request{Op: proto.OpShell, Command: "echo starting; python3 -u -m http.server 18731 --bind 127.0.0.1"}, &log)
		if err != nil {
			t.Error(err)
		}
		done <- o
	}()
	waitFor(t, "the server to listen", func() bool { return strings.Contains(log.String(), "Serving HTTP") })
	fetch := "python3 -c \"import urllib.request as u; print(u.urlopen('http://127.0.0.1:18731/', timeout=10).status)\""
	t.Run("the session's next call fetches from it", func(t *testing.T) {
		o := runIn(t, h, scope, fetch)
		if o.ExitCode != 0 || string(o.Stdout) != "200\n" {
			t.Fatalf("exit %d, stdout %q, stderr %q", o.ExitCode, o.Stdout, o.Stderr)
		}
	})
	t.Run("another session's call does not", func(t *testing.T) {
		other := Scope{Workspace: ws, Mode: WorkspaceWrite, Session: session + "-other"}
		defer h.EndSession(other.Session)
		if o := runIn(t, h, other, fetch); o.ExitCode == 0 {
			t.Fatalf("another session fetched: %q", o.Stdout)
		}
	})
	t.Run("the host does not", func(t *testing.T) {
		if c, err := net.DialTimeout("tcp", "127.0.0.1:18731", time.Second); err == nil {
			c.Close()
			t.Fatal("the host reached the session's server")
		}
	})
	stop()
	o := <-done
	if o.ExitCode != ExitStopped || !strings.Contains(log.String(), "starting\n") || !strings.Contains(log.String(), "GET / ") {
		t.Fatalf("exit %d, log %q", o.ExitCode, log.String())
	}
}
