package harness_test

import (
	"context"
	"errors"
	"testing"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
)

// seat holds a session of a shared home; closing it closes the session
// only and counts.
type seat struct {
	home   *harness.Home
	sess   *harness.Session
	closed *int
}

func (s seat) Session() *harness.Session { return s.sess }
func (s seat) Home() *harness.Home       { return s.home }
func (s seat) Close() error {
	*s.closed++
	return s.sess.Close()
}

func TestFrontSwitchesSessions(t *testing.T) {
	home := newHome(t)
	model := "script:" + writeScript(t, t.TempDir(), "one", "two", "three")
	ws := t.TempDir()
	closed := 0
	reopen := func(ctx context.Context, id string, like *harness.Session) (harness.Seat, error) {
		opts := harness.Options{Resume: id, Toolset: noTools}
		if id == "" {
			opts.Settings = like.Settings()
		}
		s, err := harness.Open(ctx, home, opts)
		if err != nil {
			return nil, err
		}
		return seat{home, s, &closed}, nil
	}
	first := open(t, home, harness.Options{Settings: session.Settings{Model: model, Workspace: ws}})
	f := harness.NewFront(seat{home, first, &closed}, reopen, nil)
	defer f.Close()
	ctx := context.Background()
	if out, err := f.Run(ctx, "hello"); err != nil || out.Text != "one" {
		t.Fatalf("%v %+v", err, out)
	}
	firstID := f.ID()
	t.Run("a new session keeps the settings and closes the old one", func(t *testing.T) {
		if err := f.Switch(ctx, ""); err != nil {
			t.Fatal(err)
		}
		if f.ID() == firstID || f.Settings().Workspace != ws || closed != 1 || f.Settings().Model != model {
			t.Fatalf("id %s, settings %+v, closed %d", f.ID(), f.Settings(), closed)
		}
	})
	t.Run("an unknown session leaves the current one in place", func(t *testing.T) {
		cur := f.ID()
		if err := f.Switch(ctx, "no-such-session"); !errors.Is(err, session.ErrNotFound) || f.ID() != cur || closed != 1 {
			t.Fatalf("%v, id %s, closed %d", err, f.ID(), closed)
		}
	})
	t.Run("resuming by id brings the earlier session back", func(t *testing.T) {
		if err := f.Switch(ctx, firstID); err != nil || f.ID() != firstID || closed != 2 {
			t.Fatalf("%v, id %s, closed %d", err, f.ID(), closed)
		}
		if evs := f.Events(); len(evs) == 0 {
			t.Fatal("no events")
		}
	})
	t.Run("the home's sessions, models and history directory are the front's", func(t *testing.T) {
		list, err := f.Sessions(ctx)
		if err != nil || len(list) != 2 {
			t.Fatalf("%v %d", err, len(list))
		}
		if len(f.Models()) == 0 || f.HistoryDir() != home.Dir() {
			t.Fatalf("%d models, history %s", len(f.Models()), f.HistoryDir())
		}
	})
}
