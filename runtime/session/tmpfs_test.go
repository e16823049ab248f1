//go:build linux

package session_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// fillEnv makes the test binary append 20 kB events to a new session in
// the home it names until an append fails, then close; it prints the
// session id, the events kept and the append error.
const fillEnv = "PTC_SESSION_TEST_FILL"

func init() {
	home := os.Getenv(fillEnv)
	if home == "" {
		return
	}
	ctx := context.Background()
	o, err := session.NewCatalog(home).Create(ctx, session.Header{Settings: session.Settings{Workspace: "/w"}}, session.LogOptions{})
	if err != nil {
		fmt.Println("create:", err)
		os.Exit(1)
	}
	big := strings.Repeat("x", 20000)
	var appendErr error
	for appendErr == nil {
		_, appendErr = o.AppendDurable(ctx, session.TypeUserMessage, session.UserMessage{ID: "u", Content: session.TextBlocks(big)})
	}
	closeErr := o.Close()
	fmt.Printf("%s %d\n%v\n%v\n", o.Header().ID, len(o.Events()), errors.Is(appendErr, session.ErrDiskFull), closeErr)
	os.Exit(0)
}

func TestARealFullDiskNeverKillsTheWriter(t *testing.T) {
	home := sessiontest.MountTmpfs(t, "12m")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fillEnv+"="+home)
	out, err := cmd.CombinedOutput()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("the writer was killed by %v on a full disk:\n%.2000s", ws.Signal(), out)
	}
	if err != nil {
		t.Fatalf("writer: %v\n%s", err, out)
	}
	lines := strings.Split(string(out), "\n")
	var id string
	var n int
	if _, err := fmt.Sscan(lines[0], &id, &n); err != nil || lines[1] != "true" || n < 10 {
		t.Fatalf("writer said %q", out)
	}
	// Make room and resume in a fresh process (this one).
	if err := syscall.Mount("tmpfs", home, "tmpfs", syscall.MS_REMOUNT, "size=64m"); err != nil {
		t.Fatal(err)
	}
	o, err := session.NewCatalog(home).Open(context.Background(), id, session.LogOptions{})
	must(t, err)
	defer o.Close()
	if len(o.Events()) != n {
		t.Fatalf("%d events after space came back, want %d", len(o.Events()), n)
	}
	if _, err := o.AppendDurable(context.Background(), session.TypeTurnEnd, session.TurnEnd{Turn: 1, Reason: session.ReasonInterrupted}); err != nil {
		t.Fatal(err)
	}
}

func TestAReadOnlyHomeIsNamedAsSuch(t *testing.T) {
	home := sessiontest.MountTmpfs(t, "16m")
	cat := session.NewCatalog(home)
	o := writeBenchSession(t, cat, "/w")
	id := o.Header().ID
	must(t, o.Close())
	if err := syscall.Mount("tmpfs", home, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := session.NewCatalog(home).Create(ctx, session.Header{}, session.LogOptions{}); !errors.Is(err, session.ErrReadOnlyFS) || errors.Is(err, session.ErrCorrupt) {
		t.Fatalf("create on a read-only home: %v", err)
	}
	if _, err := session.NewCatalog(home).Open(ctx, id, session.LogOptions{}); !errors.Is(err, session.ErrReadOnlyFS) || errors.Is(err, session.ErrCorrupt) {
		t.Fatalf("resume on a read-only home: %v", err)
	}
	ld, err := session.NewCatalog(home).Load(ctx, id)
	if err != nil || len(ld.Events) != len(benchSession) {
		t.Fatalf("reading a session of a read-only home: %d events, %v", len(ld.Events), err)
	}
	if list, err := session.NewCatalog(home).List(ctx, session.ListOptions{}); err != nil || len(list) != 1 {
		t.Fatalf("listing a read-only home: %v, %v", list, err)
	}
}

func TestAHomeOfAnotherUserIsNotWrittenTo(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the home to another user")
	}
	home := t.TempDir()
	cat := session.NewCatalog(home)
	o := writeBenchSession(t, cat, "/w")
	id := o.Header().ID
	must(t, o.Close())
	must(t, os.Chown(home, 65534, 65534))
	ctx := context.Background()
	before := sessiontest.TreeHash(t, home)
	_, err := session.NewCatalog(home).Create(ctx, session.Header{}, session.LogOptions{})
	if !errors.Is(err, session.ErrPermission) || !strings.Contains(err.Error(), "belongs to another user (uid 65534") {
		t.Fatalf("create in another user's home: %v", err)
	}
	if _, err := session.NewCatalog(home).Open(ctx, id, session.LogOptions{}); !errors.Is(err, session.ErrPermission) {
		t.Fatalf("resume in another user's home: %v", err)
	}
	if sessiontest.TreeHash(t, home) != before {
		t.Fatal("files were written into another user's home")
	}
	if ld, err := session.NewCatalog(home).Load(ctx, id); err != nil || len(ld.Events) != len(benchSession) {
		t.Fatalf("reading it is still allowed: %v", err)
	}
}
