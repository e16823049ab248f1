package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// bg is a bash call that starts command as a background job.
func bg(command string) map[string]any {
	return map[string]any{"name": "bash", "arguments": map[string]any{"command": command, "description": "background job", "run_in_background": true}}
}

func fg(command string) map[string]any {
	return map[string]any{"name": "bash", "arguments": map[string]any{"command": command, "description": "foreground"}}
}

func tcall(name string, args map[string]any) map[string]any {
	return map[string]any{"name": name, "arguments": args}
}

// runJSON runs ptc run --output json and returns the session's events.
func runJSON(t *testing.T, c *cli, args ...string) (string, []session.Event) {
	t.Helper()
	out := c.ok(append([]string{"run", "--output", "json"}, args...)...)
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.SessionID == "" {
		t.Fatalf("run output %q: %v", out, err)
	}
	return res.SessionID, c.show(res.SessionID).Events
}

// resultsOf are the texts of the tool/results of tool name, in order.
func resultsOf(t *testing.T, events []session.Event, name string) []string {
	t.Helper()
	var out []string
	for _, e := range sessiontest.OfType(events, session.TypeToolResult) {
		if r := sessiontest.Decode[session.ToolResult](t, e); r.Name == name {
			out = append(out, resultText(r))
		}
	}
	return out
}

// freePort is a port nothing on the host listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// fetch is a host-program command that fetches url, retrying while the
// server starts, and prints the page.
func fetch(url string) string {
	return `python3 -c "
import time, urllib.request
for i in range(200):
    try:
        print(urllib.request.urlopen('` + url + `', timeout=5).read().decode()); break
    except OSError:
        time.sleep(0.05)
else:
    raise SystemExit('no answer')
"`
}

// dialer tries to connect to port from the host until stopped, and
// records when it did and whether any attempt got through.
type dialer struct {
	mu       sync.Mutex
	attempts []time.Time
	reached  bool
	stop     chan struct{}
	done     chan struct{}
}

func dialFromHost(port int) *dialer {
	d := &dialer{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(d.done)
		for {
			select {
			case <-d.stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), 200*time.Millisecond)
			d.mu.Lock()
			d.attempts = append(d.attempts, time.Now())
			if err == nil {
				d.reached = true
				c.Close()
			}
			d.mu.Unlock()
		}
	}()
	return d
}

// during counts the attempts made between from and to (Unix ms).
func (d *dialer) during(from, to int64) int {
	close(d.stop)
	<-d.done
	n := 0
	for _, a := range d.attempts {
		if ms := a.UnixMilli(); ms > from && ms < to {
			n++
		}
	}
	return n
}

// jobSpan is when job jobID ran, from its job/start and job/end events.
func jobSpan(t *testing.T, events []session.Event, jobID string) (from, to int64, end session.JobEnd) {
	t.Helper()
	for _, e := range events {
		switch e.Type {
		case session.TypeJobStart:
			if sessiontest.Decode[session.JobStart](t, e).JobID == jobID {
				from = e.Time
			}
		case session.TypeJobEnd:
			if d := sessiontest.Decode[session.JobEnd](t, e); d.JobID == jobID {
				to, end = e.Time, d
			}
		}
	}
	if from == 0 || to == 0 {
		t.Fatalf("job %s lacks its job/start or job/end", jobID)
	}
	return from, to, end
}

func TestABackgroundServerAnswersTheSessionsNextCallAndNothingOutside(t *testing.T) {
	needHostTools(t)
	t.Parallel()
	c := sharedCacheCLI(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "hello.txt"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	server := fmt.Sprintf("python3 -m http.server %d --bind 127.0.0.1", port)

	t.Run("native calls in the standard preset", func(t *testing.T) {
		script := scriptJSON(t, map[string]any{"replies": []any{
			calls(bg(server)),
			calls(fg(fetch(url)), tcall("job_list", map[string]any{})),
			calls(fg("sleep 2")), // the host keeps trying the port meanwhile
			calls(tcall("job_kill", map[string]any{"job_id": "job-1"}), tcall("job_output", map[string]any{"job_id": "job-1"})),
			reply("served and stopped"),
		}})
		d := dialFromHost(port)
		_, events := runJSON(t, c, "--preset", "standard", "--workspace", ws, "--model", "script:"+script, "serve")
		from, to, end := jobSpan(t, events, "job-1")
		if n := d.during(from, to); d.reached || n < 10 {
			t.Fatalf("the host reached the session's server (%v) or hardly tried (%d attempts while it ran)", d.reached, n)
		}
		if got := resultsOf(t, events, "bash"); len(got) != 3 || !strings.Contains(got[0], "Started background job job-1") ||
			!strings.Contains(got[1], "Directory listing for /") || !strings.Contains(got[1], "hello.txt") {
			t.Fatalf("bash results %q", got)
		}
		if got := resultsOf(t, events, "job_list"); len(got) != 1 || !strings.Contains(got[0], "job-1  running") {
			t.Fatalf("job_list %q", got)
		}
		if got := resultsOf(t, events, "job_kill"); len(got) != 1 || !strings.Contains(got[0], "job-1 killed by model") {
			t.Fatalf("job_kill %q", got)
		}
		if got := resultsOf(t, events, "job_output"); len(got) != 1 || !strings.Contains(got[0], `"GET / HTTP/1.1" 200`) {
			t.Fatalf("job_output %q", got)
		}
		if end.Status != session.JobKilled || end.By != session.EndedByModel {
			t.Fatalf("job/end %+v", end)
		}
	})

	t.Run("tools.bash and tools.job_output in a run_code program", func(t *testing.T) {
		code := fmt.Sprintf(`const job = await tools.bash({command: %q, description: "serve", run_in_background: true});
const page = await tools.bash({command: %q, description: "fetch"});
const listed = await tools.job_list({});
const killed = await tools.job_kill({job_id: job.job_id});
const out = await tools.job_output({job_id: job.job_id});
return {id: job.job_id, listing: page.stdout.includes("Directory listing for /"), running: listed.jobs[0].status, killed: killed.status, log: out.output.includes('"GET / HTTP/1.1" 200')};`, server, fetch(url))
		script := scriptJSON(t, map[string]any{"replies": []any{
			calls(tcall("run_code", map[string]any{"code": code, "description": "serve and fetch"})),
			reply("done"),
		}})
		_, events := runJSON(t, c, "--preset", "ptc", "--workspace", ws, "--model", "script:"+script, "serve")
		got := resultsOf(t, events, "run_code")
		want := `"id": "job-1"`
		if len(got) != 1 || !strings.Contains(got[0], want) || !strings.Contains(got[0], `"listing": true`) || !strings.Contains(got[0], `"running": "running"`) ||
			!strings.Contains(got[0], `"killed": "killed"`) || !strings.Contains(got[0], `"log": true`) {
			t.Fatalf("run_code result %q", got)
		}
	})
}

func TestAJobThatEndsMidTurnIsAnnouncedAndPendingJobsFollowsIt(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	ws := t.TempDir()
	script := scriptJSON(t, map[string]any{"replies": []any{
		calls(bg("sleep 1; echo BG-DONE")),
		calls(fg("sleep 3")),
		reply("done"),
	}})
	_, events := runJSON(t, c, "--preset", "standard", "--workspace", ws, "--model", "script:"+script, "wait")
	var snapshots []string
	var notice string
	for _, e := range sessiontest.OfType(events, session.TypeUserMessage) {
		m := sessiontest.Decode[session.UserMessage](t, e)
		switch {
		case m.Source.Form == "snapshot":
			snapshots = append(snapshots, m.Content[0].Text)
		case m.Source.Name == "jobs":
			notice = m.Content[0].Text
		}
	}
	for _, want := range []string{"job-1", "exit code 0", "BG-DONE"} {
		if !strings.Contains(notice, want) {
			t.Fatalf("the notice %q lacks %q", notice, want)
		}
	}
	// Step 1 sends the context, step 2 adds the running job, step 3
	// (after the notice) drops it again.
	if len(snapshots) != 3 || strings.Contains(snapshots[0], "Pending jobs") ||
		!strings.Contains(snapshots[1], "Pending jobs") || !strings.Contains(snapshots[1], "- job-1: sleep 1; echo BG-DONE (started ") ||
		strings.Contains(snapshots[2], "Pending jobs") {
		t.Fatalf("snapshots:\n%s", strings.Join(snapshots, "\n---\n"))
	}
	// The notice entered at the step boundary before the third request:
	// after the second step's result, before the third answer.
	var order []string
	for _, e := range events {
		switch e.Type {
		case session.TypeUserMessage:
			if sessiontest.Decode[session.UserMessage](t, e).Source.Name == "jobs" {
				order = append(order, "notice")
			}
		case session.TypeToolResult, session.TypeAssistantMessage:
			order = append(order, e.Type)
		}
	}
	if got := strings.Join(order, " "); got != "assistant/message tool/result assistant/message tool/result notice assistant/message" {
		t.Fatalf("order %s", got)
	}
}

func TestAKilledPtcLeavesNoJobBehindAndTheResumedSessionShowsItEnded(t *testing.T) {
	needHostTools(t)
	t.Parallel()
	c := newCLI(t)
	ws := t.TempDir()
	marker := fmt.Sprintf("62.%d", time.Now().UnixNano()%1000000)
	script := scriptJSON(t, map[string]any{"replies": []any{
		calls(bg("python3 -c 'import time; time.sleep(" + marker + ")'")),
		calls(fg("sleep 120")),
	}})
	cmd := c.command("run", "--preset", "standard", "--workspace", ws, "--model", "script:"+script, "go")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for !processWith("python3", marker) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the job's program never started")
		}
		time.Sleep(50 * time.Millisecond)
	}
	tree := descendants(cmd.Process.Pid)
	if len(tree) < 3 {
		t.Fatalf("ptc's process tree %v is too small to hold the job's sandbox and the session network", tree)
	}
	cmd.Process.Kill()
	cmd.Wait()
	for deadline = time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		left := alive(tree)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes of the killed ptc live on: %v", left)
		}
	}

	id := latestSession(t, c)
	resume := scriptJSON(t, map[string]any{"replies": []any{calls(tcall("job_list", map[string]any{})), reply("listed")}})
	_, events := runJSON(t, c, "--resume", id, "--model", "script:"+resume, "what ran?")
	if got := resultsOf(t, events, "job_list"); len(got) != 1 || !strings.Contains(got[0], "job-1  killed by ptc-exit") {
		t.Fatalf("job_list after the resume %q", got)
	}
	if _, _, end := jobSpan(t, events, "job-1"); end.By != session.EndedByExit {
		t.Fatalf("job/end %+v", end)
	}
	if out := c.ok("session", "show", id); !strings.Contains(out, "job-1") || !strings.Contains(out, "killed by ptc-exit") {
		t.Fatalf("session show lacks the job:\n%s", out)
	}
}

// latestSession is the id of the home's only session.
func latestSession(t *testing.T, c *cli) string {
	t.Helper()
	var list []session.Summary
	if err := json.Unmarshal([]byte(c.ok("sessions", "--output", "json")), &list); err != nil || len(list) != 1 {
		t.Fatalf("sessions: %v %+v", err, list)
	}
	return list[0].Header.ID
}

// descendants lists pid's process tree (pid itself included).
func descendants(pid int) []int {
	parent := map[int]int{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		p, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(fields) > 1 {
			parent[p], _ = strconv.Atoi(fields[1])
		}
	}
	tree := []int{pid}
	for i := 0; i < len(tree); i++ {
		for p, pp := range parent {
			if pp == tree[i] {
				tree = append(tree, p)
			}
		}
	}
	return tree
}

// alive are the pids of list that still run (not zombies).
func alive(pids []int) []int {
	var out []int
	for _, p := range pids {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "stat"))
		if err == nil && !strings.Contains(string(b[strings.LastIndexByte(string(b), ')')+1:]), " Z ") {
			out = append(out, p)
		}
	}
	return out
}

func TestATerminalRunsAPythonREPL(t *testing.T) {
	needHostTools(t)
	t.Parallel()
	c := newCLI(t)
	ws := t.TempDir()
	read := tcall("terminal_read", map[string]any{"id": "term-1", "wait_ms": 3000})
	script := scriptJSON(t, map[string]any{"replies": []any{
		calls(tcall("terminal_open", map[string]any{"command": "python3 -i"})),
		calls(tcall("terminal_send", map[string]any{"id": "term-1", "text": "print(6*7)", "keys": []string{"Enter"}})),
		calls(read), calls(read),
		calls(tcall("terminal_close", map[string]any{"id": "term-1"})),
		reply("42"),
	}})
	_, events := runJSON(t, c, "--preset", "minimal", "--workspace", ws, "--model", "script:"+script, "six times seven")
	reads := resultsOf(t, events, "terminal_read")
	if len(reads) != 2 || !strings.Contains(reads[0]+reads[1], "print(6*7)\n42\n>>>") {
		t.Fatalf("terminal_read results %q", reads)
	}
	if got := resultsOf(t, events, "terminal_close"); len(got) != 1 || !strings.Contains(got[0], "Closed terminal term-1") {
		t.Fatalf("terminal_close %q", got)
	}
	if n := len(sessiontest.OfType(events, session.TypeTerminalOpen)) + len(sessiontest.OfType(events, session.TypeTerminalClose)); n != 2 {
		t.Fatalf("%d terminal events, want open and close", n)
	}
}
