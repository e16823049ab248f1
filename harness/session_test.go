package harness_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// writeScript writes a scripted model that answers each request with the
// next text.
func writeScript(t *testing.T, dir string, texts ...string) string {
	t.Helper()
	var replies []map[string]any
	for _, s := range texts {
		replies = append(replies, map[string]any{"text": s})
	}
	b, err := json.Marshal(map[string]any{"replies": replies})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "model.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// noTools keeps the tests away from the sandbox.
func noTools(harness.ToolsetConfig) (*tools.Registry, error) {
	return tools.NewRegistry(tools.PresentNative)
}

func newHome(t *testing.T) *harness.Home {
	t.Helper()
	home, err := harness.OpenHome(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { home.Close() })
	return home
}

func open(t *testing.T, home *harness.Home, opts harness.Options) *harness.Session {
	t.Helper()
	if opts.Toolset == nil {
		opts.Toolset = noTools
	}
	s, err := harness.Open(context.Background(), home, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func run(t *testing.T, s *harness.Session, input string) string {
	t.Helper()
	out, err := s.Run(context.Background(), input)
	if err != nil {
		t.Fatal(err)
	}
	if out.Reason != session.ReasonCompleted {
		t.Fatalf("turn ended %s: %s", out.Reason, out.Failure)
	}
	return out.Text
}

func settingsEvents(events []session.Event) []session.SettingsChange {
	var out []session.SettingsChange
	for _, e := range events {
		if e.Type == session.TypeSettings {
			var d session.SettingsChange
			if err := json.Unmarshal(e.Data, &d); err == nil {
				out = append(out, d)
			}
		}
	}
	return out
}

func TestSettings(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	writeScript(t, dir, "one", "two", "three")
	getwd := func() (string, error) { return dir, nil }
	home := newHome(t)

	s := open(t, home, harness.Options{Getwd: getwd, Settings: session.Settings{Preset: "standard", Model: "script:model.json", Workspace: "ws"}})
	id := s.ID()
	t.Run("a new session records its settings resolved", func(t *testing.T) {
		got := s.Header().Settings
		want := session.Settings{Workspace: ws, Preset: "standard", Model: "script:" + filepath.Join(dir, "model.json"),
			Sandbox: "workspace-write", Approval: "ask", MaxSteps: 100}
		if got != want {
			t.Fatalf("header settings %+v, want %+v", got, want)
		}
	})
	if text := run(t, s, "hi"); text != "one" {
		t.Fatalf("first turn answered %q", text)
	}
	must(t, s.Close())

	elsewhere := func() (string, error) { return t.TempDir(), nil }
	t.Run("a resume from another directory without overrides changes nothing", func(t *testing.T) {
		r := open(t, home, harness.Options{Resume: id, Getwd: elsewhere})
		defer r.Close()
		if r.Settings() != s.Header().Settings {
			t.Fatalf("resumed with %+v, want %+v", r.Settings(), s.Header().Settings)
		}
		if got := settingsEvents(r.Events()); len(got) != 0 {
			t.Fatalf("a plain resume logged %v", got)
		}
		if text := run(t, r, "again"); text != "one" {
			t.Fatalf("resumed turn answered %q (the script restarts per process)", text)
		}
	})
	t.Run("an override on resume is applied and logged as a change", func(t *testing.T) {
		r := open(t, home, harness.Options{Resume: id[:len(id)-2], Getwd: elsewhere,
			Settings: session.Settings{Sandbox: "read-only", Model: "ignored"}, Override: []session.Field{session.FieldSandbox}})
		defer r.Close()
		if r.Settings().Sandbox != "read-only" || r.Settings().Model != s.Header().Model {
			t.Fatalf("resumed with %+v", r.Settings())
		}
		got := settingsEvents(r.Events())
		if len(got) != 1 || got[0].Reason != "resume" || !slices.Equal(got[0].Changed, []session.Field{session.FieldSandbox}) {
			t.Fatalf("settings events %+v", got)
		}
	})
	t.Run("the latest change is what the next resume restores", func(t *testing.T) {
		r := open(t, home, harness.Options{Resume: id})
		defer r.Close()
		if r.Settings().Sandbox != "read-only" {
			t.Fatalf("resumed with %+v", r.Settings())
		}
	})
	t.Run("a change between turns is logged; a bad one leaves the session as it was", func(t *testing.T) {
		r := open(t, home, harness.Options{Resume: id})
		defer r.Close()
		before := r.Settings()
		err := r.Change(ctx, session.Settings{Preset: "no-such"}, session.FieldPreset)
		if err == nil || !strings.Contains(err.Error(), "no-such") || r.Settings() != before {
			t.Fatalf("bad change: err %v, settings %+v", err, r.Settings())
		}
		n := len(settingsEvents(r.Events()))
		must(t, r.Change(ctx, session.Settings{Approval: "never", MaxSteps: 3}, session.FieldApproval, session.FieldMaxSteps))
		got := settingsEvents(r.Events())
		if len(got) != n+1 || got[n].Reason != "change" || got[n].Settings.Approval != "never" || got[n].Settings.MaxSteps != 3 {
			t.Fatalf("settings events %+v", got)
		}
	})
}

func TestOpenRefusesBadSettingsBeforeWriting(t *testing.T) {
	home := newHome(t)
	cases := map[string]session.Settings{
		"an unknown sandbox mode": {Sandbox: "wide-open"},
		"an unknown approval":     {Approval: "sometimes"},
		"a negative step budget":  {MaxSteps: -1},
		"an unknown preset":       {Preset: "nope"},
		"a missing workspace":     {Workspace: "/does/not/exist"},
	}
	for name, s := range cases {
		t.Run(name+" is an error", func(t *testing.T) {
			_, err := harness.Open(context.Background(), home, harness.Options{Settings: s, Toolset: noTools})
			if err == nil {
				t.Fatal("opened")
			}
		})
	}
	if _, err := os.Stat(filepath.Join(home.Dir(), "sessions")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused open left a sessions directory behind (%v)", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestANewSessionRecordsTheModelAndServerTheEnvironmentChose(t *testing.T) {
	home := newHome(t)
	env := func(k string) string {
		if k == "DEEPSEEK_API_KEY" {
			return "sk-secret"
		}
		return ""
	}
	s := open(t, home, harness.Options{Getenv: env, Settings: session.Settings{Workspace: t.TempDir()}})
	h := s.Header()
	must(t, s.Close())
	if h.Model == "" || !strings.Contains(h.BaseURL, "deepseek.com") {
		t.Fatalf("recorded model %q, base URL %q", h.Model, h.BaseURL)
	}
	b, err := json.Marshal(h)
	must(t, err)
	if strings.Contains(string(b), "sk-secret") {
		t.Fatal("the key was recorded")
	}
}
