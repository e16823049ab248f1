package harness_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// userTexts are the texts of the user's own messages, in log order.
func userTexts(t *testing.T, events []session.Event) []string {
	t.Helper()
	var out []string
	for _, m := range sessiontest.DataOf[session.UserMessage](t, events, session.TypeUserMessage) {
		if m.Source.Kind == "user" {
			out = append(out, m.Content[0].Text)
		}
	}
	return out
}

func openStandard(t *testing.T, replies ...string) (*harness.Home, *harness.Session, func() (string, error)) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "ws"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeScript(t, dir, replies...)
	getwd := func() (string, error) { return dir, nil }
	home := newHome(t)
	s := open(t, home, harness.Options{Getwd: getwd, Settings: session.Settings{Preset: "standard", Model: "script:model.json", Workspace: "ws", Approval: "never"}})
	return home, s, getwd
}

func TestQueuedUserInput(t *testing.T) {
	ctx := context.Background()
	t.Run("input queued between turns survives a settings change and runs first", func(t *testing.T) {
		_, s, _ := openStandard(t, "one", "two")
		defer s.Close()
		run(t, s, "hi")
		s.Followup("typed meanwhile")
		must(t, s.Change(ctx, session.Settings{MaxSteps: 7}, session.FieldMaxSteps))
		if s.Queued() != 1 {
			t.Fatalf("the change dropped the queue: %d queued", s.Queued())
		}
		if _, err := s.RunGoal(ctx); err != nil {
			t.Fatal(err)
		}
		if got := userTexts(t, s.Events()); !slices.Equal(got, []string{"hi", "typed meanwhile"}) {
			t.Fatalf("user turns %q", got)
		}
	})
	t.Run("a cancelled turn leaves the queued input to take back, unsent", func(t *testing.T) {
		_, s, _ := openStandard(t, "one", "two")
		defer s.Close()
		var once sync.Once
		stop := s.Subscribe(func(e session.Event) {
			if e.Type == session.TypeUserMessage {
				once.Do(func() {
					s.Followup("later")
					s.Cancel()
				})
			}
		})
		out, err := s.Run(ctx, "hi")
		stop()
		if err != nil || out.Reason != session.ReasonAborted {
			t.Fatalf("%+v %v", out, err)
		}
		if got := s.TakeFollowups(); !slices.Equal(got, []string{"later"}) || s.Queued() != 0 {
			t.Fatalf("took back %q, %d left", got, s.Queued())
		}
		if got := userTexts(t, s.Events()); !slices.Equal(got, []string{"hi"}) {
			t.Fatalf("user turns %q", got)
		}
	})
	t.Run("settling after a turn runs input queued after the turn ended", func(t *testing.T) {
		_, s, _ := openStandard(t, "one", "two")
		defer s.Close()
		run(t, s, "hi")
		s.Followup("one more")
		out, ran, err := s.Settle(ctx)
		if err != nil || !ran || out.Text != "two" {
			t.Fatalf("%+v ran=%v %v", out, ran, err)
		}
		if got := userTexts(t, s.Events()); !slices.Equal(got, []string{"hi", "one more"}) {
			t.Fatalf("user turns %q", got)
		}
	})
}

func TestRequestHeaderReasons(t *testing.T) {
	ctx := context.Background()
	reasons := func(t *testing.T, s *harness.Session) []string {
		var out []string
		for _, h := range sessiontest.DataOf[session.RequestHeader](t, s.Events(), session.TypeRequestHeader) {
			out = append(out, h.Reason)
		}
		return out
	}
	t.Run("a change of what requests carry logs the next header as change", func(t *testing.T) {
		_, s, _ := openStandard(t, "one", "two")
		defer s.Close()
		run(t, s, "hi")
		must(t, s.Change(ctx, session.Settings{Preset: "minimal"}, session.FieldPreset))
		run(t, s, "again")
		if got := reasons(t, s); !slices.Equal(got, []string{"initial", "change"}) {
			t.Fatalf("header reasons %q", got)
		}
	})
	t.Run("a change requests do not carry logs no header", func(t *testing.T) {
		_, s, _ := openStandard(t, "one", "two")
		defer s.Close()
		run(t, s, "hi")
		must(t, s.Change(ctx, session.Settings{MaxSteps: 9}, session.FieldMaxSteps))
		run(t, s, "again")
		if got := reasons(t, s); !slices.Equal(got, []string{"initial"}) {
			t.Fatalf("header reasons %q", got)
		}
	})
	t.Run("the first request after a resume is resume, a change before it included", func(t *testing.T) {
		home, s, getwd := openStandard(t, "one", "two")
		run(t, s, "hi")
		must(t, s.Close())
		r := open(t, home, harness.Options{Resume: s.ID(), Getwd: getwd})
		defer r.Close()
		must(t, r.Change(ctx, session.Settings{Preset: "minimal"}, session.FieldPreset))
		run(t, r, "again")
		must(t, r.Change(ctx, session.Settings{Preset: "standard"}, session.FieldPreset))
		run(t, r, "once more")
		if got := reasons(t, r); !slices.Equal(got, []string{"initial", "resume", "change"}) {
			t.Fatalf("header reasons %q", got)
		}
	})
}
