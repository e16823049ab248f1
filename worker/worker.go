package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/natsstore"
)

// Config is what a worker runs with.
type Config struct {
	// Name identifies the worker in leases and worker/start events.
	Name string
	// Pool is the queue the worker takes turns from (DefaultPool).
	Pool string
	// Concurrency is how many turns run at once (default 1).
	Concurrency int
	// AckWait is how long the server waits for a heartbeat before it
	// gives a turn to another worker (default 30 s); heartbeats go every
	// AckWait/3.
	AckWait time.Duration
	// MaxAttempts bounds how many workers begin one turn (default 5):
	// a turn whose workers keep dying is ended with a failure after that
	// many worker/start events in its log. Deliveries that find the
	// session busy (its lease still held) are not attempts: the queue
	// itself redelivers without bound, so a job is never dropped unseen
	// while its client waits for its worker/end.
	MaxAttempts int
	// JS is the server; Catalog its sessions (whose LeaseLost must be
	// Worker.LeaseLost); Home the home the sessions run in
	// (harness.OpenHomeOn with Catalog).
	JS      jetstream.JetStream
	Catalog *natsstore.Catalog
	Home    *harness.Home
	// Options adjusts the harness options of each turn (the CLI's test
	// tools, retry policy); nil changes nothing.
	Options func(*harness.Options)
	// Say, when set, is told what the worker does, one line at a time.
	Say func(string)
}

// Worker takes turns from a pool's queue and runs them. See doc.go.
type Worker struct {
	cfg Config

	mu      sync.Mutex
	running map[string]context.CancelFunc // session → its turn's cancel
}

// New checks cfg and fills its defaults.
func New(cfg Config) (*Worker, error) {
	if cfg.Pool == "" {
		cfg.Pool = DefaultPool
	}
	if err := CheckPool(cfg.Pool); err != nil {
		return nil, err
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 1
	}
	if cfg.AckWait <= 0 {
		cfg.AckWait = 30 * time.Second
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 5
	}
	if cfg.Name == "" {
		host, _ := os.Hostname()
		cfg.Name = fmt.Sprintf("worker pid %d on %s", os.Getpid(), host)
	}
	if cfg.JS == nil || cfg.Catalog == nil || cfg.Home == nil {
		return nil, errors.New("worker: JS, Catalog and Home are required")
	}
	return &Worker{cfg: cfg, running: map[string]context.CancelFunc{}}, nil
}

// LeaseLost stops the turn of session id: another worker has its lease,
// so this one's appends would be refused anyway. Give it to the
// catalog's CatalogConfig.LeaseLost.
func (w *Worker) LeaseLost(id string, why error) {
	w.say("lost session %s: %v", id, why)
	w.mu.Lock()
	cancel := w.running[id]
	w.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (w *Worker) say(format string, args ...any) {
	if w.cfg.Say != nil {
		w.cfg.Say(fmt.Sprintf(format, args...))
	}
}

// Run takes turns until ctx ends: Concurrency slots, each pulling one
// turn when it is free. It returns once the running turns have ended
// (they are cancelled with ctx, which leaves them for another worker).
func (w *Worker) Run(ctx context.Context) error {
	if _, err := Queue(ctx, w.cfg.JS, w.cfg.Catalog.Store().Replicas()); err != nil {
		return err
	}
	cons, err := w.cfg.JS.CreateOrUpdateConsumer(ctx, TurnsStream, jetstream.ConsumerConfig{
		Durable:       consumerName + w.cfg.Pool,
		Description:   "the ptc workers of pool " + w.cfg.Pool,
		FilterSubject: turnsPrefix + w.cfg.Pool,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       w.cfg.AckWait,
		MaxDeliver:    -1, // attempts are counted in the log (Config.MaxAttempts)
		MaxAckPending: -1,
	})
	if err != nil {
		return fmt.Errorf("JetStream: cannot make the consumer of pool %s: %w", w.cfg.Pool, err)
	}
	w.say("%s takes turns from pool %s (%d at a time)", w.cfg.Name, w.cfg.Pool, w.cfg.Concurrency)
	var wg sync.WaitGroup
	for range w.cfg.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.slot(ctx, cons)
		}()
	}
	wg.Wait()
	return nil
}

// slot pulls one turn at a time and runs it.
func (w *Worker) slot(ctx context.Context, cons jetstream.Consumer) {
	for ctx.Err() == nil {
		fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		batch, err := cons.Fetch(1, jetstream.FetchContext(fctx))
		if err != nil {
			cancel()
			if ctx.Err() == nil {
				w.say("fetch a turn: %v", err)
				sleep(ctx, time.Second)
			}
			continue
		}
		for m := range batch.Messages() {
			w.handle(ctx, m)
		}
		cancel()
	}
}

// handle runs one queued turn, heartbeating while it runs.
func (w *Worker) handle(ctx context.Context, m jetstream.Msg) {
	var job Job
	if err := json.Unmarshal(m.Data(), &job); err != nil || job.ID == "" || job.Session == "" {
		w.say("dropping a malformed turn: %v", err)
		_ = m.TermWithReason("malformed job")
		return
	}
	beat, stop := context.WithCancel(ctx)
	go func() {
		t := time.NewTicker(w.cfg.AckWait / 3)
		defer t.Stop()
		for {
			select {
			case <-beat.Done():
				return
			case <-t.C:
				_ = m.InProgress()
			}
		}
	}()
	res := w.runJob(ctx, job, m)
	stop()
	switch res {
	case resDone:
		_ = m.DoubleAck(context.Background())
	case resBusy:
		// The lease frees within one TTL of its holder's death.
		_ = m.NakWithDelay(min(w.cfg.AckWait/3, w.cfg.Catalog.LeaseTTL()/2))
	case resRefused:
		_ = m.TermWithReason("refused")
	case resLeft:
		// Cancelled (the worker stops): say nothing, so the turn goes
		// to another worker when its ack wait runs out.
	}
}

// A job's result decides what the queue is told.
type result int

const (
	resDone    result = iota // acknowledge: the job is in the log
	resBusy                  // another worker runs the session: later
	resRefused               // this job can never run: terminate it
	resLeft                  // the worker stops: leave it for another
)

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// runJob opens the session (taking its lease), works out where the job
// stands from its worker/start and worker/end events, and runs what is left.
func (w *Worker) runJob(ctx context.Context, job Job, m jetstream.Msg) result {
	if r, ok := w.checkWorkspace(ctx, job); !ok {
		return r
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	opts := harness.Options{Resume: job.Session, Settings: job.Settings, Override: job.Override}
	if w.cfg.Options != nil {
		w.cfg.Options(&opts)
	}
	sess, err := harness.Open(ctx, w.cfg.Home, opts)
	if errors.Is(err, session.ErrLocked) {
		w.say("session %s is busy: %v", job.Session, err)
		return resBusy
	}
	if err != nil {
		if ctx.Err() != nil {
			return resLeft
		}
		return w.refuse(ctx, job, fmt.Errorf("cannot open the session: %w", err))
	}
	w.mu.Lock()
	w.running[job.Session] = cancel
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.running, job.Session)
		w.mu.Unlock()
	}()
	st := standing(sess.Events(), job.ID)
	if st.ended {
		w.say("job %s of session %s was done before (its acknowledgement was lost)", job.ID, job.Session)
		return w.closed(sess, resDone)
	}
	meta, _ := m.Metadata()
	if st.starts >= w.cfg.MaxAttempts {
		return w.closed(sess, w.giveUp(ctx, sess, job, st.starts))
	}
	attempt := st.starts + 1
	if err := sess.Record(ctx, session.TypeWorkerStart, session.WorkerStart{Job: job.ID, Pool: w.cfg.Pool, Worker: w.cfg.Name, Attempt: attempt}); err != nil {
		return w.closed(sess, w.lost(ctx, job, err))
	}
	var out agent.Outcome
	if st.entered {
		w.say("taking over job %s of session %s (delivery %d): its last worker stopped mid-turn", job.ID, job.Session, deliveries(meta))
		out, err = sess.RunInput(ctx, agent.Input{Text: takeoverNotice, Source: session.Source{Kind: "plugin", Name: "worker", Form: "notice"}})
	} else {
		w.say("running job %s of session %s", job.ID, job.Session)
		out, err = sess.Run(ctx, job.Input)
	}
	if err != nil || ctx.Err() != nil {
		return w.closed(sess, w.lost(ctx, job, err))
	}
	end := session.WorkerEnd{Job: job.ID, Worker: w.cfg.Name, Reason: out.Reason, Failure: out.Failure}
	if err := sess.Record(ctx, session.TypeWorkerEnd, end); err != nil {
		return w.closed(sess, w.lost(ctx, job, err))
	}
	// Said once the session is closed (its record written, its lease
	// released): a listing after this line shows the turn's end.
	r := w.closed(sess, resDone)
	w.say("job %s of session %s ended: %s", job.ID, job.Session, out.Reason)
	return r
}

// giveUp ends a job that MaxAttempts workers began and none finished:
// its worker/end names the failure, so the client that queued it stops
// waiting and reports it.
func (w *Worker) giveUp(ctx context.Context, sess *harness.Session, job Job, starts int) result {
	why := fmt.Sprintf("%d workers began this turn and none finished it (each stopped mid-turn); giving up", starts)
	w.say("job %s of session %s: %s", job.ID, job.Session, why)
	if err := sess.Record(ctx, session.TypeWorkerEnd, session.WorkerEnd{Job: job.ID, Worker: w.cfg.Name, Failure: why}); err != nil {
		return w.lost(ctx, job, err)
	}
	return resDone
}

// takeoverNotice is the input of the turn a worker runs after repairing
// a turn its previous worker was running when it died.
const takeoverNotice = "The worker running this turn stopped before it ended, so the turn was closed as interrupted: a tool call that was running has an unknown outcome. Check the current state, then carry on with the task."

func deliveries(meta *jetstream.MsgMetadata) uint64 {
	if meta == nil {
		return 0
	}
	return meta.NumDelivered
}

// closed closes sess and returns r (a close that fails leaves the turn
// to the queue: the log may not hold all of it).
func (w *Worker) closed(sess *harness.Session, r result) result {
	if err := sess.Close(); err != nil {
		w.say("close session %s: %v", sess.ID(), err)
		if r == resDone {
			return resLeft
		}
	}
	return r
}

// lost is the result of a job whose turn could not finish: cancelled
// (the worker stops, or lost the lease) it goes back to the queue.
func (w *Worker) lost(ctx context.Context, job Job, err error) result {
	if ctx.Err() == nil && err != nil {
		w.say("job %s of session %s: %v", job.ID, job.Session, err)
	}
	return resLeft
}
