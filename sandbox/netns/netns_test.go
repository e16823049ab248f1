package netns

import (
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/internal/sharedtest"
)

// start starts a Namespace, skipping (or failing under
// PTC_REQUIRE_TOOLS=1) where user namespaces or nsenter are missing.
func start(t *testing.T) *Namespace {
	t.Helper()
	ns, err := Start(Config{})
	if err != nil {
		sharedtest.Unavailable(t, "no session network here: %v", err)
	}
	t.Cleanup(func() { ns.Close() })
	return ns
}

// inside runs a Python program in the namespace and returns its output.
func inside(t *testing.T, ns *Namespace, ctx context.Context, program string) *exec.Cmd {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		sharedtest.Unavailable(t, "python3 is not installed: %v", err)
	}
	path, argv, err := ns.Wrap(py, []string{"-c", program})
	if err != nil {
		t.Fatal(err)
	}
	return exec.CommandContext(ctx, path, argv...)
}

const server = `
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True)
c, _ = s.accept(); c.sendall(b"hello from inside"); c.close()
`

const client = `
import socket, sys
c = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
print(c.recv(100).decode())
`

func TestProgramsOfOneNamespaceShareLoopbackAndNothingElseReachesIt(t *testing.T) {
	ns := start(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := inside(t, ns, ctx, server)
	out, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	buf := make([]byte, 16)
	n, err := out.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	port := strings.TrimSpace(string(buf[:n]))

	t.Run("the host cannot connect to the port", func(t *testing.T) {
		if c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, time.Second); err == nil {
			c.Close()
			t.Fatalf("the host reached the session's port %s", port)
		}
	})
	t.Run("another namespace cannot connect to the port", func(t *testing.T) {
		other := start(t)
		cmd := inside(t, other, ctx, client)
		cmd.Args = append(cmd.Args, port)
		if b, err := cmd.CombinedOutput(); err == nil {
			t.Fatalf("another session reached the port: %s", b)
		}
	})
	t.Run("a second program in the namespace connects", func(t *testing.T) {
		cmd := inside(t, ns, ctx, client)
		cmd.Args = append(cmd.Args, port)
		b, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(b), "hello from inside") {
			t.Fatalf("client: %v: %s", err, b)
		}
	})
}

func TestAClosedNamespaceRefusesToWrap(t *testing.T) {
	ns := start(t)
	if err := ns.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ns.Wrap("/bin/true", nil); err != ErrClosed {
		t.Fatalf("Wrap after Close: %v, want ErrClosed", err)
	}
	if _, err := os.Stat(ns.Path("net")); err == nil {
		t.Fatalf("the holder %d still runs after Close", ns.PID())
	}
}

func TestTheHolderEndsWhenItsStdinCloses(t *testing.T) {
	ns := start(t)
	ns.mu.Lock()
	ns.stdin.Close() // what the kernel does when ptc dies
	ns.mu.Unlock()
	done := make(chan struct{})
	go func() { _, _ = ns.cmd.Process.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the holder outlived its stdin")
	}
	ns.mu.Lock()
	ns.closed = true
	ns.mu.Unlock()
}

// TestAnUnprivilegedUserGetsASessionNetwork reruns the sharing test as
// nobody when the tests run as root (CI): the holder then has no
// capability but the ones its own user namespace grants.
func TestAnUnprivilegedUserGetsASessionNetwork(t *testing.T) {
	if os.Getenv("PTC_NETNS_UNPRIVILEGED") != "" {
		t.Skip("already unprivileged")
	}
	if os.Getuid() != 0 {
		t.Skip("needs root to switch to an unprivileged user (the other tests already run unprivileged)")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		sharedtest.Unavailable(t, "setpriv is not installed: %v", err)
	}
	start(t) // skips where the kernel has no user namespaces at all
	dir, err := os.MkdirTemp("", "netns-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "netns.test")
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	dst.Close()
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin,
		"-test.run=TestProgramsOfOneNamespaceShareLoopback", "-test.v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PTC_NETNS_UNPRIVILEGED=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestProgramsOfOneNamespaceShareLoopback") {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
}
