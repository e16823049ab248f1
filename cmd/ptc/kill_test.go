package main

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// TestASIGKILLAtAnyMomentStillResumes kills the same session again and
// again at random moments (while it starts, streams, runs a tool, ends)
// and checks each time that what was stored agrees with what was shown,
// that it resumes, and that a last run completes it.
func TestASIGKILLAtAnyMomentStillResumes(t *testing.T) {
	c := newCLI(t, "PTC_TEST_TOOLS=1")
	script := filepath.Join(t.TempDir(), "model.json")
	body := `{"replies":[{"text":"Working on it, one piece at a time.","delay_ms":25,"tool_calls":[{"name":"test_sleep","arguments":{"ms":150}}]},{"text":"done","delay_ms":25}]}`
	if err := os.WriteFile(script, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	var id string
	for i := range 8 {
		args := []string{"run", "--output", "stream-json", "--approval", "never"}
		if id == "" {
			args = append(args, "--model", "script:"+script)
		} else {
			args = append(args, "--resume", id)
		}
		cmd := c.command(append(args, "go on")...)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan []byte, 1024)
		go func() {
			sc := bufio.NewScanner(stdout)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				lines <- append([]byte(nil), sc.Bytes()...)
			}
			close(lines)
		}()
		time.Sleep(time.Duration(r.IntN(900)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		var seen []session.Event
		for l := range lines {
			var line struct {
				SessionID string `json:"session_id"`
				session.Event
			}
			if json.Unmarshal(l, &line) == nil {
				id, seen = line.SessionID, append(seen, line.Event)
			}
		}
		if id == "" {
			continue // killed before the session existed: the next run starts one
		}
		stored := c.show(id).Events
		for _, e := range seen {
			if e.Seq < int64(len(stored)) && !sameEvent(stored[e.Seq], e) {
				t.Fatalf("kill %d: stored event %d (%s) differs from the one shown (%s)", i, e.Seq, stored[e.Seq].Type, e.Type)
			}
		}
	}
	if id == "" {
		t.Fatal("every run was killed before its session existed")
	}
	f := parseFinal(t, c.ok("run", "--resume", id, "--approval", "never", "--output", "json", "finish"))
	if f.Reason != session.ReasonCompleted {
		t.Fatalf("last run: %+v", f)
	}
	s := c.show(id)
	starts, ends := sessiontest.OfType(s.Events, session.TypeTurnStart), sessiontest.OfType(s.Events, session.TypeTurnEnd)
	if len(starts) != len(ends) {
		t.Fatalf("%d turns started, %d ended", len(starts), len(ends))
	}
	calls, results := sessiontest.OfType(s.Events, session.TypeToolCall), sessiontest.OfType(s.Events, session.TypeToolResult)
	if len(results) < len(calls) {
		t.Fatalf("%d tool calls but %d results", len(calls), len(results))
	}
}
