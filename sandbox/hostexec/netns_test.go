package hostexec

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/internal/sharedtest"
	"github.com/ptc-dev/ptc/sandbox/netns"
)

func sessionNet(t testing.TB) *netns.Namespace {
	t.Helper()
	ns, err := netns.Start(netns.Config{})
	if err != nil {
		sharedtest.Unavailable(t, "no session network here: %v", err)
	}
	t.Cleanup(func() { ns.Close() })
	return ns
}

func TestProgramsOfOneSessionNetworkReachEachOther(t *testing.T) {
	r := runner(t)
	ns := sessionNet(t)
	ws := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	py := "/usr/bin/python3"
	srvCtx, stop := context.WithCancel(ctx)
	defer stop()
	portR, portW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := r.Run(srvCtx, Spec{Path: py, Args: []string{"python3", "-c", `
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
print(s.getsockname()[1], flush=True)
while True:
    c, _ = s.accept(); c.sendall(b"pong"); c.close()
`}, Dir: ws, Workspace: ws, Writable: true, LayerSize: 64 << 20, NetNS: ns, Stdin: strings.NewReader(""), Stdout: portW, Stderr: io.Discard})
		portW.Close()
		done <- err
	}()
	buf := make([]byte, 16)
	n, err := portR.Read(buf)
	if err != nil {
		t.Fatalf("the server printed no port: %v (%v)", err, <-done)
	}
	go io.Copy(io.Discard, portR)
	port := strings.TrimSpace(string(buf[:n]))
	client := func(net *netns.Namespace, network bool) (Result, string) {
		var out bytes.Buffer
		res, err := r.Run(ctx, Spec{Path: py, Args: []string{"python3", "-c", `
import socket, sys
try:
    c = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5); print(c.recv(10).decode())
except OSError as e:
    print("refused:", e); sys.exit(1)
`, port}, Dir: ws, Workspace: ws, NetNS: net, Network: network, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out})
		if err != nil {
			t.Fatal(err)
		}
		return res, out.String()
	}
	t.Run("a later program of the session connects", func(t *testing.T) {
		if res, out := client(ns, false); res.ExitCode != 0 || out != "pong\n" {
			t.Fatalf("exit %d, %q", res.ExitCode, out)
		}
	})
	t.Run("a program with a network of its own does not", func(t *testing.T) {
		if res, out := client(nil, false); res.ExitCode == 0 {
			t.Fatalf("exit 0, %q", out)
		}
	})
	t.Run("a program of another session does not", func(t *testing.T) {
		if res, out := client(sessionNet(t), false); res.ExitCode == 0 {
			t.Fatalf("exit 0, %q", out)
		}
	})
	t.Run("a program with the host network does not", func(t *testing.T) {
		if res, out := client(ns, true); res.ExitCode == 0 {
			t.Fatalf("exit 0, %q", out)
		}
	})
	stop()
	if err := <-done; err != nil {
		t.Fatalf("the server's run: %v", err)
	}
}

func TestARunInAClosedSessionNetworkFails(t *testing.T) {
	r := runner(t)
	ns := sessionNet(t)
	ns.Close()
	ws := t.TempDir()
	_, err := r.Run(context.Background(), Spec{Path: "/bin/true", Args: []string{"true"}, Dir: ws, Workspace: ws, NetNS: ns,
		Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "gone") {
		t.Fatalf("err %v, want the namespace is gone", err)
	}
}
