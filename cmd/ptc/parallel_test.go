package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// slowToolScript is a standard-preset session of two steps: the model
// streams slowly, calls bash and read, then answers. It lasts a few
// seconds so that other processes can watch it.
func slowToolScript(t *testing.T, dir string, tag string) string {
	t.Helper()
	script := map[string]any{"replies": []any{
		map[string]any{
			"text":     strings.Repeat("Looking at the workspace. ", 12),
			"delay_ms": 120,
			"tool_calls": []any{
				map[string]any{"name": "bash", "arguments": map[string]any{"command": "echo " + tag + " && ls", "description": "list"}},
				map[string]any{"name": "read", "arguments": map[string]any{"file_path": "notes.txt"}},
			},
		},
		map[string]any{"text": "done " + tag, "delay_ms": 60},
	}}
	b, err := json.Marshal(script)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, tag+".json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// liveSessions lists the sessions `ptc sessions --output json` shows as
// live.
func liveSessions(t *testing.T, c *cli) []session.Summary {
	t.Helper()
	var list []session.Summary
	if err := json.Unmarshal([]byte(c.ok("sessions", "--output", "json")), &list); err != nil {
		t.Fatal(err)
	}
	var out []session.Summary
	for _, s := range list {
		if s.Owner.Live {
			out = append(out, s)
		}
	}
	return out
}

func TestTenRunsAtOnceOnOneHomeAreListedLiveAndFollowable(t *testing.T) {
	c := newCLI(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("remember the milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	scripts := t.TempDir()
	// One run first, so the sandbox guest is compiled into the shared cache.
	c.ok("run", "--preset", "standard", "--workspace", ws, "--approval", "never", "--model", "script:"+slowToolScript(t, scripts, "warm"), "warm up")

	const n = 10
	type proc struct {
		cmd      *exec.Cmd
		out, err bytes.Buffer
	}
	procs := make([]*proc, n)
	for i := range procs {
		p := &proc{cmd: c.command("run", "--preset", "standard", "--workspace", ws, "--approval", "never",
			"--model", "script:"+slowToolScript(t, scripts, fmt.Sprintf("run%d", i)), "--output", "json", fmt.Sprintf("task %d", i))}
		p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.err
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs[i] = p
	}
	defer func() {
		for _, p := range procs {
			if p.cmd.ProcessState == nil {
				p.cmd.Process.Kill()
				p.cmd.Wait()
			}
		}
	}()

	// While they run, the listing shows all ten as live, with their pids.
	pids := map[int]bool{}
	for _, p := range procs {
		pids[p.cmd.Process.Pid] = true
	}
	var live []session.Summary
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		live = liveSessions(t, c)
		if len(live) == n {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(live) != n {
		t.Fatalf("%d sessions listed as live, want %d: %+v", len(live), n, live)
	}
	for _, s := range live {
		if !pids[s.Owner.PID] {
			t.Errorf("session %s is live under pid %d, which is none of the runs", s.Header.ID, s.Owner.PID)
		}
	}

	// Following one of them streams its events until its turn ends.
	followed := live[0].Header.ID
	follow := c.command("session", "show", followed, "--follow", "--output", "stream-json")
	var fout, ferr bytes.Buffer
	follow.Stdout, follow.Stderr = &fout, &ferr
	if err := follow.Run(); err != nil {
		t.Fatalf("show --follow: %v\n%s", err, ferr.String())
	}

	for i, p := range procs {
		if err := p.cmd.Wait(); err != nil {
			t.Fatalf("run %d: %v\nstderr: %s", i, err, p.err.String())
		}
		f := parseFinal(t, p.out.String())
		if f.Reason != "completed" || f.Text != fmt.Sprintf("done run%d", i) {
			t.Fatalf("run %d ended %+v", i, f)
		}
		s := c.show(f.SessionID)
		if got := len(sessiontest.OfType(s.Events, session.TypeToolResult)); got != 2 {
			t.Fatalf("run %d logged %d tool results, want 2", i, got)
		}
		for _, r := range sessiontest.OfType(s.Events, session.TypeToolResult) {
			if d := sessiontest.Decode[session.ToolResult](t, r); d.IsError {
				t.Fatalf("run %d: tool %s failed: %+v", i, d.Name, d.Content)
			}
		}
	}

	var streamed []session.Event
	sc := bufio.NewScanner(&fout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			SessionID string `json:"session_id"`
			session.Event
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("follow printed %q: %v", sc.Text(), err)
		}
		if line.SessionID != followed {
			t.Fatalf("follow line for session %q", line.SessionID)
		}
		streamed = append(streamed, line.Event)
	}
	stored := c.show(followed).Events
	if len(streamed) == 0 || streamed[len(streamed)-1].Type != session.TypeTurnEnd {
		t.Fatalf("follow did not stream to the turn's end: %v", types(streamed))
	}
	if !reflect.DeepEqual(compacted(t, streamed), compacted(t, stored[:len(streamed)])) {
		t.Fatalf("followed events differ from the stored ones:\nfollowed %v\nstored   %v", types(streamed), types(stored))
	}
	if len(live) != n || len(liveSessions(t, c)) != 0 {
		t.Fatal("sessions still listed as live after every run exited")
	}
}

// compacted is events with their data in compact JSON, so that a stream
// and an indented show compare equal.
func compacted(t *testing.T, events []session.Event) []session.Event {
	out := make([]session.Event, len(events))
	for i, e := range events {
		var b bytes.Buffer
		if err := json.Compact(&b, e.Data); err != nil {
			t.Fatal(err)
		}
		e.Data = b.Bytes()
		out[i] = e
	}
	return out
}
