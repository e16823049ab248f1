package serve

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
)

// openStream connects an event stream of session id and returns its
// body once the server has answered.
func (f *fixture) openStream(id string) *bufio.Scanner {
	f.t.Helper()
	req, _ := http.NewRequest("GET", f.http.URL+"/v1/sessions/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		f.t.Fatalf("stream: %v %v", resp, err)
	}
	f.t.Cleanup(func() { resp.Body.Close() })
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	return sc
}

// countUntil counts the event frames of a stream up to its turn/end.
func countUntil(sc *bufio.Scanner, typ string) int {
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "id: ") {
			n++
		}
		if line == "event: "+typ {
			return n
		}
	}
	return -1
}

// BenchmarkSSEClients delivers one turn of ~1 800 events (300 quick calls) to 20 event
// streams of one session and reports the events per second delivered to
// all of them together, beside the same turn with one in-process
// observer (x-inproc-turn: how much longer the served turn took).
func BenchmarkSSEClients(b *testing.B) {
	const clients = 20
	f := newFixture(b)
	calls := make([]map[string]any, 300)
	for i := range calls {
		calls[i] = map[string]any{"name": "quick", "arguments": map[string]any{}}
	}
	model := f.script(map[string]any{"tool_calls": calls}, map[string]any{"text": "done"})
	var delivered, perTurn int
	var served, inproc time.Duration
	for range b.N {
		rec := f.create(model)
		streams := make([]*bufio.Scanner, clients)
		for i := range streams {
			streams[i] = f.openStream(rec.ID)
		}
		counts := make([]int, clients)
		var wg sync.WaitGroup
		start := time.Now()
		for i := range streams {
			wg.Add(1)
			go func() { defer wg.Done(); counts[i] = countUntil(streams[i], session.TypeTurnEnd) }()
		}
		f.must(http.StatusAccepted, "POST", "/v1/sessions/"+rec.ID+"/prompt", map[string]any{"text": "go"}, nil)
		wg.Wait()
		served += time.Since(start)
		for _, n := range counts {
			if n != counts[0] || n < 1000 {
				b.Fatalf("the clients got %v events", counts)
			}
			delivered += n
		}
		perTurn = counts[0]

		opts := f.options
		opts.Settings = session.Settings{Workspace: f.ws, Model: model, Preset: "standard"}
		seen := 0
		opts.Observer = func(session.Event) { seen++ }
		sess, err := harness.Open(context.Background(), f.home, opts)
		if err != nil {
			b.Fatal(err)
		}
		start = time.Now()
		if _, err := sess.Run(context.Background(), "go"); err != nil {
			b.Fatal(err)
		}
		inproc += time.Since(start)
		sess.Close()
	}
	b.ReportMetric(float64(delivered)/served.Seconds(), "events/s")
	b.ReportMetric(float64(perTurn), "events/turn")
	b.ReportMetric(float64(perTurn*b.N)/inproc.Seconds(), "inproc-events/s")
	b.ReportMetric(served.Seconds()/inproc.Seconds(), "x-inproc-turn")
}

// BenchmarkCreatePromptFirstEvent times create + prompt + the turn's
// first event over the API (a stream opened after the create), against
// the same steps in process (harness.Open, Run, the observer's first
// turn/start).
func BenchmarkCreatePromptFirstEvent(b *testing.B) {
	f := newFixture(b)
	model := f.script(map[string]any{"text": "hi"})
	var api, inproc, create, prompt time.Duration
	for range b.N {
		start := time.Now()
		rec := f.create(model)
		create += time.Since(start)
		sc := f.openStream(rec.ID)
		p := time.Now()
		f.must(http.StatusAccepted, "POST", "/v1/sessions/"+rec.ID+"/prompt", map[string]any{"text": "go"}, nil)
		if countUntil(sc, session.TypeTurnStart) < 0 {
			b.Fatal("no turn/start")
		}
		prompt += time.Since(p)
		api += time.Since(start)

		opts := f.options
		opts.Settings = session.Settings{Workspace: f.ws, Model: model, Preset: "standard"}
		got := make(chan struct{}, 1)
		opts.Observer = func(e session.Event) {
			if e.Type == session.TypeTurnStart {
				got <- struct{}{}
			}
		}
		start = time.Now()
		sess, err := harness.Open(context.Background(), f.home, opts)
		if err != nil {
			b.Fatal(err)
		}
		done := make(chan struct{})
		go func() { sess.Run(context.Background(), "go"); close(done) }()
		<-got
		inproc += time.Since(start)
		<-done
		sess.Close()
		// Let the served turn end before the next round.
		waitFor(b, "the served turn", func() bool { running, _, _ := f.srv.served(rec.ID).state(); return !running })
	}
	b.ReportMetric(float64(api.Microseconds())/float64(b.N)/1000, "api-ms")
	b.ReportMetric(float64(create.Microseconds())/float64(b.N)/1000, "create-ms")
	b.ReportMetric(float64(prompt.Microseconds())/float64(b.N)/1000, "prompt-to-event-ms")
	b.ReportMetric(float64(inproc.Microseconds())/float64(b.N)/1000, "inproc-ms")
	b.ReportMetric(float64(api)/float64(inproc), "x-inproc")
}
