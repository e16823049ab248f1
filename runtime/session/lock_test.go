package session_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
)

// holderEnv makes the test binary act as "another ptc process": it opens
// the store named by the variable, writes a session, says "ready" and
// holds the store until its stdin closes.
const holderEnv = "PTC_SESSION_TEST_HOLD_STORE"

func TestMain(m *testing.M) {
	if home := os.Getenv(ownerEnv); home != "" {
		if err := ownSession(home); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if dir := os.Getenv(holderEnv); dir != "" {
		if err := holdStore(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func holdStore(dir string) error {
	ctx := context.Background()
	s, err := session.OpenBadger(dir, session.BadgerOptions{})
	if err != nil {
		return err
	}
	if err := s.Create(ctx, session.Header{ID: "held", CreatedAt: 1, Settings: session.Settings{Workspace: "/w"}, Version: 1}); err != nil {
		return err
	}
	ev := session.Event{Seq: 0, Type: session.TypeTurnStart, Time: 2, Data: json.RawMessage(`{"turn":1}`)}
	if err := s.Append(ctx, "held", []session.Event{ev}, true); err != nil {
		return err
	}
	// Unsynced events after the durable one: a killed holder may lose them.
	for seq := int64(1); seq <= 5; seq++ {
		ev := session.Event{Seq: seq, Type: "x-buffered", Time: 3, Data: json.RawMessage(`{}`)}
		if err := s.Append(ctx, "held", []session.Event{ev}, false); err != nil {
			return err
		}
	}
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return s.Close()
}

// startHolder runs the holder process and returns a function that makes
// it close the store and exit.
func startHolder(t *testing.T, dir string) (release func()) {
	release, _ = startHolderProcess(t, dir)
	return release
}

// startHolderProcess is startHolder that also returns the process.
func startHolderProcess(t *testing.T, dir string) (release func(), cmd *exec.Cmd) {
	t.Helper()
	cmd = exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holderEnv+"="+dir)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	must(t, err)
	stdout, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "ready" {
		_ = cmd.Process.Kill()
		t.Fatalf("holder process did not get ready: %q, %v", line, err)
	}
	var done bool
	release = func() {
		if done || cmd.ProcessState != nil {
			return
		}
		done = true
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("holder process: %v", err)
		}
	}
	t.Cleanup(release)
	return release, cmd
}

func TestASecondProcessGetsErrLockedAndDataSurvives(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "sessions")
	release := startHolder(t, dir)

	_, err := session.OpenBadger(dir, session.BadgerOptions{})
	if !errors.Is(err, session.ErrLocked) || !strings.Contains(err.Error(), "wait for the other ptc") {
		t.Fatalf("read-write open while held: err = %v, want ErrLocked telling what to do", err)
	}
	_, err = session.OpenBadger(dir, session.BadgerOptions{ReadOnly: true})
	if !errors.Is(err, session.ErrLocked) || !strings.Contains(err.Error(), "cannot attach a reader while a writer") {
		t.Fatalf("read-only open while held: err = %v, want ErrLocked explaining the read-only limit", err)
	}
	release()

	ro1, err := session.OpenBadger(dir, session.BadgerOptions{ReadOnly: true})
	must(t, err)
	ro2, err := session.OpenBadger(dir, session.BadgerOptions{ReadOnly: true})
	must(t, err)
	for _, ro := range []*session.BadgerStore{ro1, ro2} {
		evs, err := ro.Load(ctx, "held")
		must(t, err)
		if len(evs) != 6 || evs[0].Type != session.TypeTurnStart {
			t.Fatalf("read-only view sees %+v", evs)
		}
		if err := ro.Append(ctx, "held", nil, true); !errors.Is(err, session.ErrReadOnly) {
			t.Fatalf("append on a read-only store: err = %v, want ErrReadOnly", err)
		}
	}
	if _, err := session.OpenBadger(dir, session.BadgerOptions{}); !errors.Is(err, session.ErrLocked) {
		t.Fatalf("read-write open while readers hold the store: err = %v, want ErrLocked", err)
	}
	must(t, ro1.Close())
	must(t, ro2.Close())

	rw, err := session.OpenBadger(dir, session.BadgerOptions{})
	must(t, err)
	defer rw.Close()
	log, err := session.Open(ctx, rw, "held", session.LogOptions{})
	must(t, err)
	if e, err := log.AppendDurable(ctx, session.TypeTurnEnd, session.TurnEnd{Turn: 1, Reason: "completed"}); err != nil || e.Seq != 6 {
		t.Fatalf("append after the holder left: %+v, %v", e, err)
	}
}

func TestAKilledWriterLosesNothingDurable(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "sessions")
	_, cmd := startHolderProcess(t, dir)
	must(t, cmd.Process.Kill()) // SIGKILL: no Close, no flush
	_ = cmd.Wait()

	for _, ro := range []bool{true, false, true} {
		s, err := session.OpenBadger(dir, session.BadgerOptions{ReadOnly: ro})
		must(t, err)
		ld, err := session.LoadSession(ctx, s, "held")
		must(t, err)
		if len(ld.Events) < 1 || ld.Events[0].Type != session.TypeTurnStart {
			t.Fatalf("read-only %v: the durable event is gone: %+v", ro, ld.Events)
		}
		must(t, s.Close())
	}
}

func TestReadOnlyOpenOfAMissingStoreSaysSo(t *testing.T) {
	_, err := session.OpenBadger(filepath.Join(t.TempDir(), "none"), session.BadgerOptions{ReadOnly: true})
	if !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
}

func TestDefaultHomeFollowsPTCHome(t *testing.T) {
	t.Setenv("PTC_HOME", "/tmp/ptc-home")
	home, err := session.DefaultHome()
	must(t, err)
	if home != "/tmp/ptc-home" || session.StoreDir(home) != "/tmp/ptc-home/sessions" {
		t.Fatalf("home %q, store %q", home, session.StoreDir(home))
	}
	t.Setenv("PTC_HOME", "")
	home, err = session.DefaultHome()
	must(t, err)
	if filepath.Base(home) != ".ptc" {
		t.Fatalf("default home = %q, want ~/.ptc", home)
	}
}

func TestNewIDSortsByTime(t *testing.T) {
	r := strings.NewReader("\x01\x02\x03\xff\xfe\xfd")
	a := session.NewID(newClock().t, r)
	b := session.NewID(newClock().t.Add(61e9), r)
	if a != "20261129-120301-010203" || b != "20261129-120402-fffefd" || a >= b {
		t.Fatalf("ids %q, %q", a, b)
	}
}
