package harness

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/sandbox"
)

// shellChildSock makes TestShellServerChild dial the server at its value.
const shellChildSock = "PTC_TEST_SH_SERVER_SOCK"

// TestShellServerChild is a stranger to the server: run in a new user
// namespace, it asks for a command and prints what came back. Without the
// variable it does nothing.
func TestShellServerChild(t *testing.T) {
	sock := os.Getenv(shellChildSock)
	if sock == "" {
		t.Skip("run by TestTheShellServerServesItsUserAndRefusesAnotherNamespace")
	}
	conn, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = json.NewEncoder(conn).Encode(shellRequest{Workspace: t.TempDir(), Mode: sandbox.WorkspaceWrite, Command: "echo served"})
	var resp shellResponse
	err = json.NewDecoder(conn).Decode(&resp)
	os.Stdout.WriteString("child-saw: " + string(resp.Outcome.Stdout) + " " + resp.Error + " " + map[bool]string{true: "no answer", false: "answer"}[err != nil] + "\n")
}

func TestTheShellServerServesItsUserAndRefusesAnotherNamespace(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "sh.sock")
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ServeShell(ctx, sock, time.Hour) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("ServeShell: %v", err)
		}
	}()
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatal("the server never listened")
		}
	}
	if st, err := os.Stat(sock); err != nil || st.Mode().Perm()&0o077 != 0 {
		t.Fatalf("the socket's mode: %v %v", st.Mode(), err)
	}
	ws := t.TempDir()
	t.Run("a command runs on the server as ptc sh runs it", func(t *testing.T) {
		o, viaServer, err := RunShellResident(context.Background(), sock, ShellOptions{Workspace: ws, Mode: sandbox.WorkspaceWrite, Command: "echo hi > f && cat f && exit 3"})
		if err != nil || !viaServer || o.ExitCode != 3 || strings.TrimSpace(string(o.Stdout)) != "hi" {
			t.Fatalf("%v %v %+v", err, viaServer, o)
		}
		if b, err := os.ReadFile(filepath.Join(ws, "f")); err != nil || string(b) != "hi\n" {
			t.Fatalf("%q %v", b, err)
		}
	})
	t.Run("a read-only command cannot write", func(t *testing.T) {
		o, viaServer, err := RunShellResident(context.Background(), sock, ShellOptions{Workspace: ws, Mode: sandbox.ReadOnly, Command: "echo x > g"})
		if err != nil || !viaServer || o.ExitCode == 0 {
			t.Fatalf("%v %v %+v", err, viaServer, o)
		}
	})
	t.Run("a peer in another user namespace gets no answer", func(t *testing.T) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestShellServerChild$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), shellChildSock+"="+sock)
		cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER,
			UidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}},
			GidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}}
		out, err := cmd.CombinedOutput()
		if err != nil && strings.Contains(err.Error(), "operation not permitted") {
			t.Skipf("no user namespaces here: %v", err)
		}
		if !strings.Contains(string(out), "child-saw:") || !strings.Contains(string(out), "no answer") || strings.Contains(string(out), "served") {
			t.Fatalf("%v\n%s", err, out)
		}
	})
}
