package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

func TestAResumedSessionContinuesExactlyAsItWas(t *testing.T) {
	c := newCLI(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "marker.txt"), []byte("here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The model is given by a path relative to where the first run starts.
	first := t.TempDir()
	script := `{"replies":[{"tool_calls":[{"name":"bash","arguments":{"command":"pwd; ls","description":"where"}}]},{"text":"ok"}]}`
	if err := os.WriteFile(filepath.Join(first, "model.json"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	run := c.command("run", "--preset", "standard", "--model", "script:model.json", "--workspace", ws, "--approval", "never", "--output", "json", "where am I?")
	run.Dir = first
	out, err := run.Output()
	if err != nil {
		t.Fatalf("first run: %v", err)
	}
	id := parseFinal(t, string(out)).SessionID

	elsewhere := t.TempDir()
	hint := c.command("run", "--resume", id, "--output", "json", "and now?")
	hint.Dir = elsewhere
	out, err = hint.Output()
	if err != nil {
		t.Fatalf("resume from another directory with no flags: %v", err)
	}
	if f := parseFinal(t, string(out)); f.SessionID != id || f.Reason != "completed" || f.Turn != 2 {
		t.Fatalf("resumed run: %+v", f)
	}

	s := c.show(id)
	headers := sessiontest.OfType(s.Events, session.TypeRequestHeader)
	if len(headers) != 2 {
		t.Fatalf("%d request headers, want the initial one and the resume one", len(headers))
	}
	a, b := sessiontest.Decode[session.RequestHeader](t, headers[0]), sessiontest.Decode[session.RequestHeader](t, headers[1])
	t.Run("the same tools go on the wire", func(t *testing.T) {
		names := func(h session.RequestHeader) []string {
			var n []string
			for _, tl := range h.Tools {
				n = append(n, tl.Name)
			}
			return n
		}
		if !slices.Equal(names(a), names(b)) || !slices.Contains(names(b), "bash") || slices.Contains(names(b), "run_code") {
			t.Fatalf("tools before %v, after %v", names(a), names(b))
		}
	})
	t.Run("the same model and system text", func(t *testing.T) {
		if a.Model != b.Model || a.System != b.System || b.Reason != "resume" {
			t.Fatalf("model %q → %q, system same %v, reason %q", a.Model, b.Model, a.System == b.System, b.Reason)
		}
	})
	t.Run("the tools run in the same workspace", func(t *testing.T) {
		results := sessiontest.OfType(s.Events, session.TypeToolResult)
		if len(results) != 2 {
			t.Fatalf("%d tool results", len(results))
		}
		for _, r := range results {
			text := sessiontest.Decode[session.ToolResult](t, r).Content[0].Text
			if !strings.Contains(text, ws) || !strings.Contains(text, "marker.txt") {
				t.Fatalf("bash ran elsewhere: %q", text)
			}
		}
	})
	t.Run("nothing was logged as changed", func(t *testing.T) {
		if got := sessiontest.OfType(s.Events, session.TypeSettings); len(got) != 0 {
			t.Fatalf("settings changes logged: %s", got[0].Data)
		}
	})
	t.Run("a flag given on resume overrides its setting and is logged as a change", func(t *testing.T) {
		r := c.command("run", "--resume", id, "--sandbox", "read-only", "--output", "json", "once more")
		r.Dir = elsewhere
		if out, err := r.Output(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		changes := sessiontest.OfType(c.show(id).Events, session.TypeSettings)
		if len(changes) != 1 {
			t.Fatalf("%d settings changes", len(changes))
		}
		d := sessiontest.Decode[session.SettingsChange](t, changes[0])
		if !slices.Equal(d.Changed, []session.Field{session.FieldSandbox}) || d.Settings.Sandbox != "read-only" || d.Settings.Workspace != ws || d.Reason != "resume" {
			t.Fatalf("change %+v", d)
		}
		var sessions []session.Summary
		if err := json.Unmarshal([]byte(c.ok("sessions", "--output", "json")), &sessions); err != nil || sessions[0].Settings.Sandbox != "read-only" {
			t.Fatalf("listing after the change: %+v, %v", sessions, err)
		}
	})
}

func TestTheResumeHintWorksAsPrinted(t *testing.T) {
	c := newCLI(t)
	home := filepath.Join(t.TempDir(), "my home")
	run := c.command("run", "--home", home, "--model", "script:"+examplePath(t, "hello.json"), "hello")
	var errb strings.Builder
	run.Stderr = &errb
	if err := run.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	_, after, ok := strings.Cut(errb.String(), "resume with: ")
	hint, _, _ := strings.Cut(after, ")")
	if !ok || !strings.HasPrefix(hint, "ptc --resume ") || !strings.Contains(hint, "--home '"+home+"'") {
		t.Fatalf("no usable hint in %q", errb.String())
	}
	// Run it exactly as printed, from another directory, with the binary
	// standing in for "ptc".
	sh := c.command("sh", "-c", ptcBin+strings.TrimPrefix(hint, "ptc"))
	sh.Path, sh.Args = "/bin/sh", []string{"sh", "-c", ptcBin + strings.TrimPrefix(hint, "ptc")}
	sh.Dir = t.TempDir()
	sh.Stdin = strings.NewReader("hello again\n")
	out, err := sh.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", hint, err, out)
	}
	id := strings.Fields(strings.TrimPrefix(hint, "ptc --resume "))[0]
	if !strings.Contains(string(out), "ptc session "+id) {
		t.Fatalf("the hint did not continue session %s:\n%s", id, out)
	}
}
