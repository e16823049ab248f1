package session_test

import (
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
