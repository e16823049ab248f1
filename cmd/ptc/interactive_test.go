package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

func TestInteractiveFollowUpsShareOneSession(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Turn{Text: "first answer"}, llmtest.Turn{Text: "second answer"})
	c := newCLI(t)
	cmd := c.command("--base-url", srv.URL, "--model", "m")
	cmd.Stdin = strings.NewReader("hello\nand then?\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("ptc: %v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "first answer") || !strings.Contains(out.String(), "second answer") {
		t.Fatalf("stdout = %q", out.String())
	}
	var id string
	for _, f := range strings.Fields(errb.String()) {
		if strings.Count(f, "-") == 2 && len(f) == 22 {
			id = f
		}
	}
	if id == "" {
		t.Fatalf("the session id must be shown: %q", errb.String())
	}
	if starts := sessiontest.OfType(c.show(id).Events, session.TypeTurnStart); len(starts) != 2 {
		t.Fatalf("want two turns in one session, got %d", len(starts))
	}
}

func TestALiveSessionIsListedAndASecondWriterIsRefused(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Turn{Text: "thinking forever", Hang: true})
	c := newCLI(t)
	first := c.command("run", "--base-url", srv.URL, "--model", "m", "--output", "stream-json", "hang")
	stdout, err := first.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { first.Process.Kill(); first.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n') // the session is open once an event streams
	if err != nil {
		t.Fatal(err)
	}
	var ev struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(line), &ev); err != nil || ev.SessionID == "" {
		t.Fatalf("first stream-json line %q: %v", line, err)
	}
	hello := "script:" + examplePath(t, "hello.json")

	t.Run("another session runs to the end meanwhile", func(t *testing.T) {
		f := parseFinal(t, c.ok("run", "--model", hello, "--output", "json", "hi"))
		if f.Reason != "completed" || f.SessionID == ev.SessionID {
			t.Fatalf("second run: %+v", f)
		}
	})
	t.Run("the listing shows the running session as live with its pid", func(t *testing.T) {
		out := c.ok("sessions")
		want := fmt.Sprintf("live (pid %d), running", first.Process.Pid)
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, ev.SessionID) && strings.Contains(l, want) && strings.Contains(l, "hang") {
				return
			}
		}
		t.Fatalf("no line for %s with %q:\n%s", ev.SessionID, want, out)
	})
	t.Run("resuming it elsewhere is refused naming the holder", func(t *testing.T) {
		_, errs, code := c.run("run", "--resume", ev.SessionID, "--model", hello, "more")
		want := fmt.Sprintf("in use by another ptc process (pid %d)", first.Process.Pid)
		if code == 0 || !strings.Contains(errs, want) {
			t.Fatalf("exit %d, stderr %q, want it to contain %q", code, errs, want)
		}
	})
}
