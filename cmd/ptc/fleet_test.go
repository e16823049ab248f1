package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm/llmtest"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// testFleet is a `ptc nats embedded` server process and `ptc worker`
// processes on it, as a fleet on one machine runs.
type testFleet struct {
	t       *testing.T
	c       *cli
	url     string
	mu      sync.Mutex
	wrote   chan struct{} // a token after each write to a worker's log
	exited  chan string   // the name of each worker that exits
	workers map[string]*exec.Cmd
	logs    map[string]*bytes.Buffer
}

// Short timings for tests: a dead worker's turn goes to another within
// a few seconds. Every fleet command of a test gets the same lease TTL,
// whichever of them makes the lease bucket.
const (
	testAckWait  = "2s"
	testLeaseTTL = "2s"
)

// startFleet starts the server and n workers named w1…wn, and returns
// once every worker takes turns (so the workers made the queue's
// consumer and the buckets, with the test's short timings).
func startFleet(t *testing.T, c *cli, n int) *testFleet {
	t.Helper()
	srv := c.command("nats", "embedded", "--store", filepath.Join(c.home, "nats"), "--listen", "127.0.0.1:0")
	out, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	startChild(t, srv)
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("ptc nats embedded printed no URL: %v", err)
	}
	return startWorkers(t, c, strings.TrimSpace(line), n)
}

// startWorkers starts n workers named w1…wn on the server at url, and
// returns once every worker takes turns.
func startWorkers(t *testing.T, c *cli, url string, n int) *testFleet {
	t.Helper()
	f := &testFleet{t: t, c: c, url: url, wrote: make(chan struct{}, 1), exited: make(chan string, n), workers: map[string]*exec.Cmd{}, logs: map[string]*bytes.Buffer{}}
	for i := 1; i <= n; i++ {
		name := "w" + string(rune('0'+i))
		w := c.command("worker", "--nats", f.url, "--name", name, "--ack-wait", testAckWait, "--lease-ttl", testLeaseTTL)
		var log bytes.Buffer
		w.Stderr = &syncWriter{mu: &f.mu, w: &log, wrote: f.wrote}
		f.mu.Lock()
		f.workers[name], f.logs[name] = w, &log
		f.mu.Unlock()
		done := startChild(t, w)
		go func() {
			<-done
			f.exited <- name
		}()
	}
	f.waitLogs(func(logs map[string]string) bool {
		for _, l := range logs {
			if !strings.Contains(l, "takes turns from pool") {
				return false
			}
		}
		return true
	}, "every worker to take turns")
	return f
}

// startChild starts cmd in a process group of its own that dies with the
// test: SIGKILLed at cleanup (the group, so nothing it started stays),
// and by the kernel if the test binary dies first (a timeout's panic
// runs no cleanup). The channel is closed when the process has exited.
func startChild(t *testing.T, cmd *exec.Cmd) <-chan struct{} {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	})
	return done
}

// waitLogs returns once ok holds for the workers' logs, looking after
// every write to them; it fails the test if a worker exits first.
func (f *testFleet) waitLogs(ok func(map[string]string) bool, what string) {
	f.t.Helper()
	for {
		f.mu.Lock()
		logs := map[string]string{}
		for name, l := range f.logs {
			logs[name] = l.String()
		}
		f.mu.Unlock()
		if ok(logs) {
			return
		}
		select {
		case <-f.wrote:
		case name := <-f.exited:
			f.t.Fatalf("worker %s exited while waiting for %s\n%s", name, what, f.log())
		}
	}
}

// waitEnded waits until a worker says it ended a job of session id (its
// record written and its lease released).
func (f *testFleet) waitEnded(id string) {
	f.t.Helper()
	f.waitLogs(func(logs map[string]string) bool {
		for _, l := range logs {
			if strings.Contains(l, "of session "+id+" ended:") {
				return true
			}
		}
		return false
	}, "the end of a job of "+id)
}

// syncWriter is a writer shared with the test goroutine; each write
// leaves a token in wrote.
type syncWriter struct {
	mu    *sync.Mutex
	w     *bytes.Buffer
	wrote chan struct{}
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case s.wrote <- struct{}{}:
	default:
	}
	return s.w.Write(p)
}

func (f *testFleet) log() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	for name, l := range f.logs {
		b.WriteString("--- " + name + "\n" + l.String())
	}
	return b.String()
}

// awaitMark waits for the test_sleep call to write mark and returns the
// name of the worker whose pid it holds. No log line follows the mark
// (the call is sleeping), so the file is looked at every 10 ms.
func (f *testFleet) awaitMark(mark string) string {
	f.t.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if b, err := os.ReadFile(mark); err == nil && strings.HasSuffix(string(b), "\n") {
			var pid int
			if _, err := fmt.Sscanf(string(b), "slept by pid %d", &pid); err != nil {
				f.t.Fatalf("mark %q: %v", b, err)
			}
			for name, w := range f.workers {
				if w.Process.Pid == pid {
					return name
				}
			}
			f.t.Fatalf("the slow call ran in pid %d, no worker\n%s", pid, f.log())
		}
		select {
		case <-tick.C:
		case name := <-f.exited:
			f.t.Fatalf("worker %s exited before the slow call started\n%s", name, f.log())
		}
	}
}

// show is `ptc session show --nats URL ID --output json`.
func (f *testFleet) show(id string) shown {
	f.t.Helper()
	var s shown
	if err := json.Unmarshal([]byte(f.c.ok("session", "show", "--nats", f.url, id, "--output", "json")), &s); err != nil {
		f.t.Fatal(err)
	}
	return s
}

func TestFleetRunsAScriptedSessionOnTwoWorkers(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "PTC_TEST_TOOLS=1")
	f := startFleet(t, c, 2)
	script := writeScript(t,
		map[string]any{"text": "Step one.", "tool_calls": []map[string]any{{"id": "s1", "name": "test_sleep", "arguments": map[string]any{"ms": 5}}}},
		map[string]any{"text": "Step two.", "tool_calls": []map[string]any{{"id": "s2", "name": "test_sleep", "arguments": map[string]any{"ms": 5}}}},
		map[string]any{"text": "Step three: done."},
	)
	fin := parseFinal(t, c.ok("run", "--nats", f.url, "--model", "script:"+script, "--output", "json", "three steps"))
	if fin.Reason != session.ReasonCompleted || fin.Text != "Step three: done." {
		t.Fatalf("final = %+v\n%s", fin, f.log())
	}
	f.waitEnded(fin.SessionID)
	t.Run("ptc sessions --nats lists it", func(t *testing.T) {
		out := c.ok("sessions", "--nats", f.url)
		if !strings.Contains(out, fin.SessionID) || !strings.Contains(out, "completed") || !strings.Contains(out, "three steps") {
			t.Fatalf("listing:\n%s", out)
		}
	})
	t.Run("ptc session show --nats has every event in order", func(t *testing.T) {
		s := f.show(fin.SessionID)
		for i, e := range s.Events {
			if e.Seq != int64(i) {
				t.Fatalf("event %d has seq %d", i, e.Seq)
			}
		}
		got := types(s.Events)
		if got[0] != session.TypeWorkerStart || got[len(got)-1] != session.TypeWorkerEnd || len(sessiontest.OfType(s.Events, session.TypeToolResult)) != 2 {
			t.Fatalf("events = %v", got)
		}
		// The text view lists the same events.
		text := c.ok("session", "show", "--nats", f.url, fin.SessionID)
		if !strings.Contains(text, "worker/start") || !strings.Contains(text, "tool/result") || !strings.Contains(text, "worker/end") {
			t.Fatalf("show:\n%s", text)
		}
		export := strings.Split(strings.TrimSpace(c.ok("session", "export", "--nats", f.url, fin.SessionID)), "\n")
		if len(export) != len(s.Events) {
			t.Fatalf("export has %d lines for %d events", len(export), len(s.Events))
		}
	})
}

func TestFleetWorkerKilledMidTurn(t *testing.T) {
	t.Parallel()
	mark := filepath.Join(t.TempDir(), "side-effect")
	args, _ := json.Marshal(map[string]any{"ms": 600000, "mark": mark})
	srv := llmtest.NewServer(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{ID: "call_slow", Name: "test_sleep", Arguments: string(args)}}},
		llmtest.Turn{Text: "I will check before retrying."},
	)
	c := newCLI(t, "PTC_TEST_TOOLS=1")
	f := startFleet(t, c, 3)

	run := c.command("run", "--nats", f.url, "--lease-ttl", testLeaseTTL, "--base-url", srv.URL, "--model", "m", "--output", "json", "sleep for ten minutes")
	var out, errb bytes.Buffer
	run.Stdout, run.Stderr = &out, &errb
	run.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-run.Process.Pid, syscall.SIGKILL) })
	// The slow call writes the mark as it starts: the pid in it is the
	// worker to kill.
	victim := f.awaitMark(mark)
	if err := f.workers[victim].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := run.Wait(); err != nil {
		t.Fatalf("ptc run --nats: %v\n%s\n%s\n%s", err, out.String(), errb.String(), f.log())
	}
	fin := parseFinal(t, out.String())
	if fin.Reason != session.ReasonCompleted || fin.Text != "I will check before retrying." || fin.Turn != 2 {
		t.Fatalf("final = %+v\n%s", fin, f.log())
	}
	id := fin.SessionID
	events := f.show(id).Events
	t.Run("the call in flight is repaired as a local resume does", func(t *testing.T) {
		r := sessiontest.Decode[session.ToolResult](t, sessiontest.OfType(events, session.TypeToolResult)[0])
		if r.Error == nil || r.Error.Code != "TOOL_OUTCOME_UNKNOWN" || r.CallID != "call_slow" {
			t.Fatalf("repaired result = %+v", r)
		}
		if e := sessiontest.Decode[session.TurnEnd](t, sessiontest.OfType(events, session.TypeTurnEnd)[0]); e.Reason != session.ReasonInterrupted {
			t.Fatalf("first turn end = %+v", e)
		}
	})
	t.Run("another worker takes over and finishes the job", func(t *testing.T) {
		starts := sessiontest.DataOf[session.WorkerStart](t, events, session.TypeWorkerStart)
		ends := sessiontest.DataOf[session.WorkerEnd](t, events, session.TypeWorkerEnd)
		if len(starts) != 2 || starts[1].Attempt != 2 || starts[1].Worker == victim || len(ends) != 1 || ends[0].Worker != starts[1].Worker {
			t.Fatalf("job/start %+v, job/end %+v (killed %s)", starts, ends, victim)
		}
		notice := sessiontest.DataOf[session.UserMessage](t, events, session.TypeUserMessage)
		last := notice[len(notice)-1]
		if last.Source.Kind != "plugin" || last.Source.Name != "worker" || !strings.Contains(last.Content[0].Text, "stopped before it ended") {
			t.Fatalf("the takeover turn's input = %+v", last)
		}
	})
	t.Run("the side effect happened once", func(t *testing.T) {
		b, err := os.ReadFile(mark)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "\n"); n != 1 || len(srv.Requests()) != 2 {
			t.Fatalf("the slow call ran %d times, the model was asked %d times", n, len(srv.Requests()))
		}
	})
}
