package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

func TestMemStoreConforms(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T) session.Store { return session.NewMemStore() })
}

func TestBadgerStoreConforms(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T) session.Store { return openBadger(t, t.TempDir()) })
	sessiontest.RunPersistent(t, func(t *testing.T, dir string) session.Store { return openBadger(t, dir) })
}

func openBadger(t *testing.T, dir string) *session.BadgerStore {
	t.Helper()
	s, err := session.OpenBadger(dir, session.BadgerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestADamagedBadgerStoreIsReportedNotRewritten(t *testing.T) {
	dir := t.TempDir()
	s, err := session.OpenBadger(dir, session.BadgerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Create(context.Background(), session.Header{ID: "a", Version: session.FormatVersion}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "MANIFEST")
	if err := os.WriteFile(manifest, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = session.OpenBadger(dir, session.BadgerOptions{})
	if !errors.Is(err, session.ErrCorrupt) || !strings.Contains(err.Error(), "move the directory aside") {
		t.Fatalf("err = %v, want ErrCorrupt with advice", err)
	}
	if b, _ := os.ReadFile(manifest); string(b) != "garbage" {
		t.Fatalf("the damaged manifest was rewritten: %q", b)
	}
}
