package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/natsstore"
	"github.com/ptc-dev/ptc/runtime/tools"
	"github.com/ptc-dev/ptc/worker"
)

// The benchmarks run a fleet in one process: an embedded JetStream
// server (file storage, no port), workers on connections of their own,
// and a client that queues turns and follows the sessions, as ptc run
// --nats does. The model is scripted and the sessions have no tools, so
// what is measured is the fleet's own cost per turn: the queue, the
// lease, opening the session from JetStream, the turn's appends, the
// record and the close.

// benchFleet is the server and the client side.
type benchFleet struct {
	ns   *server.Server
	js   jetstream.JetStream
	cat  *natsstore.Catalog
	home *harness.Home
}

const benchLeaseTTL = time.Second

func newBenchFleet(b *testing.B) *benchFleet {
	b.Helper()
	ns, err := natsstore.StartServer(natsstore.ServerOptions{StoreDir: b.TempDir(), Port: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	nc := benchConn(b, ns)
	js, err := jetstream.New(nc)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	cat, err := natsstore.OpenCatalog(ctx, nc, natsstore.CatalogConfig{Holder: "bench client", LeaseTTL: benchLeaseTTL})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := worker.Queue(ctx, js, 1); err != nil {
		b.Fatal(err)
	}
	home, err := harness.OpenHome(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { home.Close() })
	return &benchFleet{ns: ns, js: js, cat: cat, home: home}
}

func benchConn(b *testing.B, ns *server.Server) *nats.Conn {
	nc, err := natsstore.InProcess(ns)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(nc.Close)
	return nc
}

// noTools is the sessions' toolset: none (no sandbox to start).
func noTools(harness.ToolsetConfig) (*tools.Registry, error) {
	return tools.NewRegistry(tools.PresentNative)
}

// benchWorker is an in-process worker; kill closes its connection, which
// is what a SIGKILL looks like from the server (no heartbeat, no lease
// renewal, no ack), then stops what is left of it.
type benchWorker struct {
	nc     *nats.Conn
	cancel context.CancelFunc
	done   chan struct{}
}

func (f *benchFleet) startWorker(b *testing.B, name string, ackWait time.Duration, toolset func(harness.ToolsetConfig) (*tools.Registry, error)) *benchWorker {
	b.Helper()
	nc, err := natsstore.InProcess(f.ns)
	if err != nil {
		b.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		b.Fatal(err)
	}
	var w atomic.Pointer[worker.Worker]
	cat, err := natsstore.OpenCatalog(context.Background(), nc, natsstore.CatalogConfig{
		Holder: name, LeaseTTL: benchLeaseTTL,
		LeaseLost: func(id string, why error) {
			if w := w.Load(); w != nil {
				w.LeaseLost(id, why)
			}
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	home, err := harness.OpenHomeOn(b.TempDir(), cat)
	if err != nil {
		b.Fatal(err)
	}
	wk, err := worker.New(worker.Config{
		Name: name, AckWait: ackWait, JS: js, Catalog: cat, Home: home,
		Options: func(o *harness.Options) { o.Toolset = toolset },
	})
	if err != nil {
		b.Fatal(err)
	}
	w.Store(wk)
	ctx, cancel := context.WithCancel(context.Background())
	bw := &benchWorker{nc: nc, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(bw.done)
		_ = wk.Run(ctx)
	}()
	b.Cleanup(func() {
		bw.cancel()
		<-bw.done
		home.Close()
		nc.Close()
	})
	return bw
}

func (w *benchWorker) kill() { w.nc.Close() }

var scripts atomic.Int64

// newSession makes a session whose model replays replies.
func (f *benchFleet) newSession(b *testing.B, dir string, replies ...map[string]any) string {
	b.Helper()
	script := filepath.Join(dir, fmt.Sprintf("script-%d.json", scripts.Add(1)))
	raw, _ := json.Marshal(map[string]any{"replies": replies})
	if err := os.WriteFile(script, raw, 0o600); err != nil {
		b.Fatal(err)
	}
	h, _, err := harness.NewHeader(f.home, session.Settings{Workspace: dir, Model: "script:" + script, Approval: "never"}, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	held, err := f.cat.Create(context.Background(), h, session.LogOptions{})
	if err != nil {
		b.Fatal(err)
	}
	id := held.SessionLog().Header().ID
	if err := held.Close(); err != nil {
		b.Fatal(err)
	}
	return id
}

// follow calls ended with each worker/end of session id until ctx ends.
func (f *benchFleet) follow(ctx context.Context, id string, ended func(session.WorkerEnd)) (ready <-chan struct{}) {
	r := make(chan struct{})
	var once sync.Once
	go func() {
		_ = f.cat.Store().Follow(ctx, id, 0, func(e session.Event) error {
			if e.Type == session.TypeWorkerEnd {
				var d session.WorkerEnd
				_ = json.Unmarshal(e.Data, &d)
				ended(d)
			}
			return nil
		}, func() { once.Do(func() { close(r) }) })
		once.Do(func() { close(r) })
	}()
	return r
}

// BenchmarkFleetTurns runs 200 scripted sessions × 5 turns over 1 and
// over 3 workers (one turn at a time each): every session's client
// queues a turn, waits for its worker/end, and queues the next, all 200
// at once. It reports turns per second over the run and the turn
// latency (queued → worker/end seen by the client) at p50 and p99.
// Run with -benchtime=1x: one iteration is the whole run.
func BenchmarkFleetTurns(b *testing.B) {
	const sessions, turns = 200, 5
	for _, workers := range []int{1, 3} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for range b.N {
				f := newBenchFleet(b)
				dir := b.TempDir()
				reply := map[string]any{"text": "Done."}
				ids := make([]string, sessions)
				for i := range ids {
					ids[i] = f.newSession(b, dir, reply, reply, reply, reply, reply)
				}
				for i := range workers {
					f.startWorker(b, fmt.Sprintf("w%d", i+1), 30*time.Second, noTools)
				}
				lat := f.drive(b, ids, turns)
				b.ReportMetric(float64(len(lat.ms))/lat.wall.Seconds(), "turns/s")
				b.ReportMetric(lat.quantile(0.50), "p50-ms")
				b.ReportMetric(lat.quantile(0.99), "p99-ms")
			}
		})
	}
}

// latencies are per-turn latencies in ms, and the run's wall time.
type latencies struct {
	ms   []float64
	wall time.Duration
}

func (l latencies) quantile(q float64) float64 {
	s := slices.Clone(l.ms)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// drive runs turns turns in every session at once, one after another
// within a session, and returns their latencies.
func (f *benchFleet) drive(b *testing.B, ids []string, turns int) latencies {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var out latencies
	var wg sync.WaitGroup
	start := time.Now()
	for _, id := range ids {
		ends := make(chan session.WorkerEnd, turns)
		<-f.follow(ctx, id, func(e session.WorkerEnd) { ends <- e })
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range turns {
				job := worker.Job{ID: worker.NewJobID(), Session: id, Input: fmt.Sprintf("turn %d", t+1)}
				t0 := time.Now()
				if err := worker.Enqueue(ctx, f.js, worker.DefaultPool, job); err != nil {
					b.Error(err)
					return
				}
				e := <-ends
				if e.Job != job.ID || e.Failure != "" || e.Reason != session.ReasonCompleted {
					b.Errorf("session %s: %+v", id, e)
					return
				}
				mu.Lock()
				out.ms = append(out.ms, float64(time.Since(t0).Microseconds())/1000)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	out.wall = time.Since(start)
	if len(out.ms) != len(ids)*turns {
		b.Fatalf("%d turns of %d ended", len(out.ms), len(ids)*turns)
	}
	return out
}

// BenchmarkRedelivery is the cost of a worker dying mid-turn: a turn
// whose tool call blocks on worker A, A killed (its connection closed),
// and the time until worker B has taken the turn over — after the ack
// wait, once A's lease expired — repaired it and run the takeover turn
// to its worker/end. It reports that time, and what it costs beyond
// the ack wait (ack wait and lease TTL are 1 s here, 30 s and 15 s by
// default), next to an ordinary turn's latency on the same fleet.
func BenchmarkRedelivery(b *testing.B) {
	const ackWait = time.Second
	for range b.N {
		f := newBenchFleet(b)
		dir := b.TempDir()
		called := make(chan struct{}, 1)
		block := func(harness.ToolsetConfig) (*tools.Registry, error) {
			return tools.NewRegistry(tools.PresentNative, waitTool(func(ctx context.Context) {
				called <- struct{}{}
				<-ctx.Done()
			}))
		}
		pass := func(harness.ToolsetConfig) (*tools.Registry, error) {
			return tools.NewRegistry(tools.PresentNative, waitTool(func(context.Context) {}))
		}
		id := f.newSession(b, dir,
			map[string]any{"tool_calls": []map[string]any{{"id": "c1", "name": "wait", "arguments": map[string]any{}}}},
			map[string]any{"text": "Checked; done."}, map[string]any{"text": "Checked; done."})
		ctx, cancel := context.WithCancel(context.Background())
		ends := make(chan session.WorkerEnd, 4)
		<-f.follow(ctx, id, func(e session.WorkerEnd) { ends <- e })
		victim := f.startWorker(b, "victim", ackWait, block)
		job := worker.Job{ID: worker.NewJobID(), Session: id, Input: "wait"}
		if err := worker.Enqueue(ctx, f.js, worker.DefaultPool, job); err != nil {
			b.Fatal(err)
		}
		select {
		case <-called:
		case e := <-ends:
			b.Fatalf("the turn ended before its call: %+v", e)
		}
		f.startWorker(b, "survivor", ackWait, pass)
		t0 := time.Now()
		victim.kill()
		e := <-ends
		took := time.Since(t0)
		if e.Job != job.ID || e.Worker != "survivor" || e.Reason != session.ReasonCompleted {
			b.Fatalf("worker/end %+v", e)
		}
		// An ordinary turn on the same fleet, for comparison.
		job2 := worker.Job{ID: worker.NewJobID(), Session: id, Input: "again"}
		t1 := time.Now()
		if err := worker.Enqueue(ctx, f.js, worker.DefaultPool, job2); err != nil {
			b.Fatal(err)
		}
		if e := <-ends; e.Job != job2.ID {
			b.Fatalf("worker/end %+v", e)
		}
		turn := time.Since(t1)
		cancel()
		b.ReportMetric(float64(took.Milliseconds()), "takeover-ms")
		b.ReportMetric(float64((took - ackWait).Milliseconds()), "beyond-ackwait-ms")
		b.ReportMetric(float64(turn.Microseconds())/1000, "turn-ms")
	}
}

// waitTool is a tool "wait" that runs fn and returns.
func waitTool(fn func(context.Context)) tools.Tool {
	spec := tools.Spec{Name: "wait", Description: "Wait (benchmark tool).", InputSchema: json.RawMessage(`{"type":"object"}`)}
	return tools.New(spec, func(ctx context.Context, _ tools.Call, _ struct{}) (string, error) {
		fn(ctx)
		return "waited", ctx.Err()
	})
}
