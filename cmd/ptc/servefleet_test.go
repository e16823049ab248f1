package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// TestServeFleet runs `ptc serve --nats embedded` with two workers on
// its JetStream server and drives a session through the HTTP API: made,
// prompted (the turn queued for a worker), streamed from the session's
// subject, listed; what only a turn's own process can do answers 501.
func TestServeFleet(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "PTC_TEST_TOOLS=1")
	srv := c.command("serve", "--nats", "embedded", "--nats-listen", "127.0.0.1:0", "--addr", "127.0.0.1:0", "--lease-ttl", testLeaseTTL)
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var errb bytes.Buffer
	wrote := make(chan struct{}, 1)
	srv.Stderr = &syncWriter{mu: &mu, w: &errb, wrote: wrote}
	startChild(t, srv)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("ptc serve printed no URL: %v", err)
	}
	api, token, _ := strings.Cut(strings.TrimSpace(line), "/?token=")
	natsURL := regexp.MustCompile(`start workers with .ptc worker --nats (nats://[0-9.:]+)`)
	var m []string
	for m == nil {
		mu.Lock()
		m = natsURL.FindStringSubmatch(errb.String())
		mu.Unlock()
		if m == nil {
			<-wrote
		}
	}
	f := startWorkers(t, c, m[1], 2)
	call := func(method, path, body string) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, api+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	script := writeScript(t,
		map[string]any{"text": "Step one.", "tool_calls": []map[string]any{{"id": "s1", "name": "test_sleep", "arguments": map[string]any{"ms": 5}}}},
		map[string]any{"text": "Done over the fleet."},
	)
	code, b := call("POST", "/v1/sessions", `{"workspace":`+jsonString(c.home)+`,"model":`+jsonString("script:"+script)+`}`)
	var rec struct{ ID, Status, Title, Worker string }
	if err := json.Unmarshal(b, &rec); code != http.StatusCreated || err != nil || rec.ID == "" {
		t.Fatalf("create = %d %s", code, b)
	}
	// Follow the stream from the start, then queue the turn.
	req, _ := http.NewRequest("GET", api+"/v1/sessions/"+rec.ID+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("events: %v %v", err, resp)
	}
	defer resp.Body.Close()
	if code, b := call("POST", "/v1/sessions/"+rec.ID[:12]+"/prompt", `{"text":"two steps on a worker"}`); code != http.StatusAccepted || !strings.Contains(string(b), `"job":"job-`) {
		t.Fatalf("prompt = %d %s", code, b)
	}
	events := readSSE(t, resp.Body, session.TypeWorkerEnd)
	for i, e := range events {
		if e.Seq != int64(i) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
	}
	ends := sessiontest.DataOf[session.TurnEnd](t, events, session.TypeTurnEnd)
	starts := sessiontest.DataOf[session.WorkerStart](t, events, session.TypeWorkerStart)
	if events[0].Type != session.TypeWorkerStart || len(ends) != 1 || ends[0].Reason != session.ReasonCompleted || len(sessiontest.OfType(events, session.TypeToolResult)) != 1 {
		t.Fatalf("streamed %v\n%s", types(events), f.log())
	}
	if _, ok := f.workers[starts[0].Worker]; !ok {
		t.Fatalf("worker/start names %q", starts[0].Worker)
	}
	f.waitEnded(rec.ID)
	t.Run("the listing is the fleet's", func(t *testing.T) {
		code, b := call("GET", "/v1/sessions", "")
		var list []struct{ ID, Status, Title string }
		if err := json.Unmarshal(b, &list); code != 200 || err != nil || len(list) != 1 || list[0].ID != rec.ID || list[0].Status != session.ReasonCompleted || list[0].Title != "two steps on a worker" {
			t.Fatalf("list = %d %s", code, b)
		}
		if out := c.ok("sessions", "--nats", m[1]); !strings.Contains(out, rec.ID) {
			t.Fatalf("ptc sessions --nats:\n%s", out)
		}
	})
	t.Run("a stream resumes after the seq it is given", func(t *testing.T) {
		req, _ := http.NewRequest("GET", api+"/v1/sessions/"+rec.ID+"/events?after=2", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		again := readSSE(t, resp.Body, session.TypeWorkerEnd)
		if len(again) != len(events)-3 || again[0].Seq != 3 {
			t.Fatalf("after=2 streamed %d events from %d", len(again), again[0].Seq)
		}
	})
	t.Run("what only a turn's process can do is not supported", func(t *testing.T) {
		for _, path := range []string{"/cancel", "/pending/req-1", "/compact"} {
			code, b := call("POST", "/v1/sessions/"+rec.ID+path, `{}`)
			if code != http.StatusNotImplemented || !strings.Contains(string(b), "not_supported") {
				t.Fatalf("%s = %d %s", path, code, b)
			}
		}
		if code, _ := call("POST", "/v1/sessions/nope/prompt", `{"text":"x"}`); code != http.StatusNotFound {
			t.Fatalf("prompt to no session = %d", code)
		}
	})
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// readSSE reads a stream's events until one of type last.
func readSSE(t *testing.T, body io.Reader, last string) []session.Event {
	t.Helper()
	var events []session.Event
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var e session.Event
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			t.Fatalf("frame %q: %v", data, err)
		}
		if e.Type == "" { // the end frame
			t.Fatalf("the stream ended: %s", data)
		}
		events = append(events, e)
		if e.Type == last {
			return events
		}
	}
	t.Fatalf("the stream stopped after %v: %v", types(events), sc.Err())
	return nil
}
