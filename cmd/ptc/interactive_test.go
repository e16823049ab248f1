package main

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
	"github.com/ptc-dev/ptc/runtime/session"
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
	if starts := ofType(c.show(id).Events, session.TypeTurnStart); len(starts) != 2 {
		t.Fatalf("want two turns in one session, got %d", len(starts))
	}
}

func TestASecondWriterGetsAClearError(t *testing.T) {
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
	bufio.NewReader(stdout).ReadString('\n') // the store is open once an event streams

	for _, args := range [][]string{{"run", "--base-url", srv.URL, "--model", "m", "hi"}, {"sessions"}} {
		_, errs, code := c.run(args...)
		if code == 0 || !strings.Contains(errs, "in use by another process") {
			t.Fatalf("ptc %v: exit %d, stderr %q", args, code, errs)
		}
	}
}
