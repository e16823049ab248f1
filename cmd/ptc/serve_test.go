package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
)

// served is a `ptc serve` process of the test binary.
type served struct {
	t      *testing.T
	cmd    *exec.Cmd
	base   string // http://127.0.0.1:PORT
	token  string
	stderr *syncBuffer
	done   chan error
}

// syncBuffer is a bytes.Buffer safe for a process writing and a test
// reading.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveHome starts ptc serve on a free loopback port of c's home and
// reads the URL it prints.
func (c *cli) serve(args ...string) *served {
	c.t.Helper()
	cmd := c.command(append([]string{"serve", "--addr", "127.0.0.1:0", "--heartbeat", "200ms"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		c.t.Fatal(err)
	}
	s := &served{t: c.t, cmd: cmd, stderr: &syncBuffer{}, done: make(chan error, 1)}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		c.t.Fatalf("ptc serve printed no URL: %v\n%s", err, s.stderr)
	}
	go func() { io.Copy(io.Discard, out); s.done <- cmd.Wait() }()
	u := strings.TrimSpace(line)
	base, token, ok := strings.Cut(u, "/?token=")
	if !ok {
		c.t.Fatalf("ptc serve printed %q", line)
	}
	s.base, s.token = base, token
	c.t.Cleanup(func() { s.stop(syscall.SIGKILL) })
	return s
}

// stop signals the server and waits for it to exit.
func (s *served) stop(sig syscall.Signal) {
	if s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Signal(sig)
	<-s.done
}

// req sends a request with the token (hdr may replace or remove headers;
// "Host" sets the Host) and returns the status and body.
func (s *served) req(method, path string, body any, hdr ...string) (int, []byte) {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	r, err := http.NewRequest(method, s.base+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	r.Header.Set("Authorization", "Bearer "+s.token)
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		switch {
		case hdr[i] == "Host":
			r.Host = hdr[i+1]
		case hdr[i+1] == "":
			r.Header.Del(hdr[i])
		default:
			r.Header.Set(hdr[i], hdr[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		s.t.Fatalf("%s %s: %v\n%s", method, path, err, s.stderr)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func (s *served) must(want int, method, path string, body, v any) {
	s.t.Helper()
	code, out := s.req(method, path, body)
	if code != want {
		s.t.Fatalf("%s %s = %d, want %d: %s\nserver: %s", method, path, code, want, out, s.stderr)
	}
	if v != nil {
		if err := json.Unmarshal(out, v); err != nil {
			s.t.Fatalf("%s %s: %v: %s", method, path, err, out)
		}
	}
}

type sseFrame struct {
	id    int64
	event string
	data  string
}

// events reads session id's stream (after "", or a Last-Event-ID) until
// stop holds for a frame; it returns the frames with ids.
func (s *served) events(id, lastEventID string, stop func(sseFrame) bool) []sseFrame {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, _ := http.NewRequestWithContext(ctx, "GET", s.base+"/v1/sessions/"+id+"/events", nil)
	r.Header.Set("Authorization", "Bearer "+s.token)
	if lastEventID != "" {
		r.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		s.t.Fatalf("events = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var out []sseFrame
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	cur := sseFrame{id: -1}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "" && cur.event != "":
			if cur.id >= 0 {
				out = append(out, cur)
			}
			if stop(cur) {
				return out
			}
			cur = sseFrame{id: -1}
		case strings.HasPrefix(line, "id: "):
			cur.id, _ = strconv.ParseInt(line[4:], 10, 64)
		case strings.HasPrefix(line, "event: "):
			cur.event = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.data += line[6:]
		}
	}
	s.t.Fatalf("the stream ended after %d frames: %v\nserver: %s", len(out), sc.Err(), s.stderr)
	return nil
}

func untilEvent(typ string) func(sseFrame) bool {
	return func(f sseFrame) bool { return f.event == typ }
}

// record is the part of a session record the tests read.
type record struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Running bool   `json:"running"`
	Turns   int    `json:"turns"`
	Pending []struct {
		ID    string `json:"id"`
		Kind  string `json:"kind"`
		Tool  string `json:"tool"`
		Stale bool   `json:"stale"`
	} `json:"pending"`
}

func (s *served) waitRecord(id, what string, cond func(record) bool) record {
	s.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var r record
		s.must(200, "GET", "/v1/sessions/"+id, nil, &r)
		if cond(r) {
			return r
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for %s: %+v\nserver: %s", what, r, s.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestServeOverHTTP(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	srv := c.serve()
	host := strings.TrimPrefix(srv.base, "http://")
	t.Run("the token file is made 0600", func(t *testing.T) {
		st, err := os.Stat(filepath.Join(c.home, "serve.token"))
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("%v %v", st, err)
		}
	})
	for _, tc := range []struct {
		name string
		hdr  []string
		post bool
		want int
	}{
		{"no token is 401", []string{"Authorization", ""}, false, 401},
		{"a wrong Host is refused", []string{"Host", "rebound.example:" + strings.Split(host, ":")[1]}, false, 421},
		{"a foreign Origin on a POST is refused", []string{"Origin", "http://evil.example"}, true, 403},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method, body := "GET", any(nil)
			if tc.post {
				method, body = "POST", map[string]any{"workspace": "/"}
			}
			if code, out := srv.req(method, "/v1/sessions", body, tc.hdr...); code != tc.want {
				t.Fatalf("= %d, want %d: %s", code, tc.want, out)
			}
		})
	}
	script := writeScript(t, map[string]any{"reasoning": "short", "text": "Hello over HTTP."})
	var rec record
	srv.must(201, "POST", "/v1/sessions", map[string]any{"workspace": workspace(t), "model": "script:" + script, "preset": "standard"}, &rec)
	srv.must(202, "POST", "/v1/sessions/"+rec.ID+"/prompt", map[string]any{"text": "hello"}, nil)
	all := srv.events(rec.ID, "", untilEvent(session.TypeTurnEnd))
	for i, f := range all {
		var e session.Event
		if f.id != int64(i) || json.Unmarshal([]byte(f.data), &e) != nil || e.Seq != f.id || e.Type != f.event {
			t.Fatalf("frame %d: id %d event %s data %s", i, f.id, f.event, f.data)
		}
	}
	var end session.TurnEnd
	var last session.Event
	json.Unmarshal([]byte(all[len(all)-1].data), &last)
	json.Unmarshal(last.Data, &end)
	if end.Reason != session.ReasonCompleted {
		t.Fatalf("turn ended %+v", end)
	}
	n := len(all) / 2
	t.Run("Last-Event-ID: N resumes at N+1 exactly", func(t *testing.T) {
		got := srv.events(rec.ID, strconv.Itoa(n), untilEvent(session.TypeTurnEnd))
		if got[0].id != int64(n+1) || len(got) != len(all)-n-1 {
			t.Fatalf("resumed with %d frames from %d, want %d from %d", len(got), got[0].id, len(all)-n-1, n+1)
		}
		for i, f := range got {
			if f.data != all[n+1+i].data {
				t.Fatalf("frame %d differs after resuming", f.id)
			}
		}
	})
	t.Run("the stream's events are the export's", func(t *testing.T) {
		srv.stop(syscall.SIGTERM)
		lines := strings.Split(strings.TrimSpace(c.ok("session", "export", rec.ID)), "\n")
		for i, f := range all {
			if lines[i] != f.data {
				t.Fatalf("event %d:\nstream %s\nexport %s", i, f.data, lines[i])
			}
		}
	})
}

// escalation is a bash call that needs approval under workspace-write:
// it asks for git-write.
func escalation(file string) map[string]any {
	return call("bash", map[string]any{"command": "echo approved > " + file, "description": "write the file", "sandbox_permissions": "git-write", "justification": "the test asks"})
}

func TestServeApprovalsAnsweredOverHTTP(t *testing.T) {
	t.Parallel()
	for _, restart := range []string{"", "SIGTERM", "SIGKILL"} {
		name := "answered while the server runs"
		if restart != "" {
			name = "answered after a restart by " + restart
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := newCLI(t)
			srv := c.serve()
			ws := workspace(t)
			script := writeScript(t, escalation("out.txt"), map[string]any{"text": "Done."})
			var rec record
			srv.must(201, "POST", "/v1/sessions", map[string]any{"workspace": ws, "model": "script:" + script, "preset": "standard"}, &rec)
			srv.must(202, "POST", "/v1/sessions/"+rec.ID+"/prompt", map[string]any{"text": "write the file"}, nil)
			r := srv.waitRecord(rec.ID, "a pending approval", func(r record) bool { return len(r.Pending) == 1 })
			p := r.Pending[0]
			if p.Kind != "approval" || p.Tool != "bash" || r.Status != "waiting" || p.Stale {
				t.Fatalf("pending %+v, status %s", p, r.Status)
			}
			if restart != "" {
				sig := syscall.SIGTERM
				if restart == "SIGKILL" {
					sig = syscall.SIGKILL
				}
				srv.stop(sig)
				srv = c.serve()
				r = srv.waitRecord(rec.ID, "the approval pending again", func(r record) bool { return len(r.Pending) == 1 })
				if r.Pending[0].ID != p.ID || !r.Pending[0].Stale || r.Status != "waiting" {
					t.Fatalf("after the restart: %+v", r)
				}
			}
			var ans struct {
				Answer  string `json:"answer"`
				Resumed bool   `json:"resumed"`
			}
			srv.must(200, "POST", "/v1/sessions/"+rec.ID+"/pending/"+p.ID, map[string]any{"decision": "once"}, &ans)
			if ans.Answer != "allow-once" || ans.Resumed != (restart != "") {
				t.Fatalf("answer %+v", ans)
			}
			t.Run("a second answer is told it came too late", func(t *testing.T) {
				code, out := srv.req("POST", "/v1/sessions/"+rec.ID+"/pending/"+p.ID, map[string]any{"decision": "deny"})
				if code != 409 || !strings.Contains(string(out), "already_answered") {
					t.Fatalf("= %d %s", code, out)
				}
			})
			r = srv.waitRecord(rec.ID, "the turn to complete", func(r record) bool { return !r.Running && r.Status == session.ReasonCompleted })
			got, err := os.ReadFile(filepath.Join(ws, "out.txt"))
			if err != nil || string(got) != "approved\n" {
				t.Fatalf("the approved command wrote %q (%v)\nserver: %s", got, err, srv.stderr)
			}
			srv.stop(syscall.SIGTERM)
			evs := c.show(rec.ID).Events
			var decided []session.ApprovalDecided
			for _, e := range evs {
				if e.Type == session.TypeApprovalDecided {
					var d session.ApprovalDecided
					json.Unmarshal(e.Data, &d)
					decided = append(decided, d)
				}
			}
			if len(decided) != 1 || decided[0].Decision != "allow-once" || decided[0].By != "user" {
				t.Fatalf("decisions %+v", decided)
			}
		})
	}
}

func TestAttachToAServedSessionShowsWhatABrowserPosts(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	srv := c.serve()
	script := writeScript(t, map[string]any{"text": "Answered the browser."})
	var rec record
	srv.must(201, "POST", "/v1/sessions", map[string]any{"workspace": workspace(t), "model": "script:" + script, "preset": "standard"}, &rec)
	attach := c.command("attach", rec.ID[:14], "--serve", srv.base)
	var out syncBuffer
	attach.Stdout, attach.Stderr = &out, &out
	attach.Stdin = strings.NewReader("")
	if err := attach.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { attach.Process.Kill(); attach.Wait() }()
	waitOutput(t, &out, "attached to session "+rec.ID)
	// What a browser's page sends: its cookie, its own Origin.
	code, body := srv.req("POST", "/v1/sessions/"+rec.ID+"/prompt", map[string]any{"text": "a prompt from the browser"},
		"Authorization", "", "Cookie", "ptc_token="+srv.token, "Origin", srv.base, "Sec-Fetch-Site", "same-origin")
	if code != 202 {
		t.Fatalf("the browser's prompt = %d %s", code, body)
	}
	waitOutput(t, &out, "> a prompt from the browser")
	waitOutput(t, &out, "Answered the browser.")
	attach.Process.Signal(os.Interrupt)
	attach.Wait()
	if !strings.Contains(out.String(), "left session "+rec.ID) {
		t.Fatalf("attach did not say it left:\n%s", out.String())
	}
}

func waitOutput(t *testing.T, b *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(b.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in:\n%s", want, b.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
