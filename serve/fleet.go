package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/natsstore"
	"github.com/ptc-dev/ptc/worker"
)

// FleetConfig configures NewFleet.
type FleetConfig struct {
	// Catalog is the sessions on the JetStream server; JS the server,
	// whose turn queue prompts go to; Pool the pool of workers that runs
	// them (worker.DefaultPool when empty).
	Catalog *natsstore.Catalog
	JS      jetstream.JetStream
	Pool    string
	// Home is this machine's ptc home: the presets and models a new
	// session's settings are resolved with (as `ptc run --nats` does).
	Home *harness.Home
	// Token, Addr, AllowHosts, Heartbeat and Logf are as in Config.
	Token      string
	Addr       string
	AllowHosts []string
	Heartbeat  time.Duration
	Logf       func(format string, args ...any)
}

// Fleet serves the sessions of a fleet (ptc serve --nats) over the API
// Server serves a home's sessions with: the listing read from the
// catalog, a prompt queued as a turn for a worker of the pool, the event
// stream fed by following the session's subject. It runs no turn
// itself. What only the process running a turn can do — cancel it,
// answer its approvals and questions, change its settings or compact it
// between turns, delete the session — answers 501 not_supported: a
// worker's turn puts its requests to nobody (they fail closed), as any
// headless run's do.
type Fleet struct {
	cfg     FleetConfig
	handler http.Handler
	ctx     context.Context // ends the streams at Close
	cancel  context.CancelFunc
}

// NewFleet returns a fleet front end for cfg.
func NewFleet(cfg FleetConfig) (*Fleet, error) {
	if cfg.Catalog == nil || cfg.JS == nil || cfg.Home == nil {
		return nil, errors.New("serve: a fleet needs its catalog, server and home")
	}
	if cfg.Pool == "" {
		cfg.Pool = worker.DefaultPool
	}
	if err := worker.CheckPool(cfg.Pool); err != nil {
		return nil, err
	}
	if len(cfg.Token) < 32 {
		return nil, errors.New("serve: the token is too short")
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = 15 * time.Second
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := &Fleet{cfg: cfg, ctx: ctx, cancel: cancel}
	mux := http.NewServeMux()
	for _, rt := range f.routes() {
		mux.HandleFunc(rt.method+" "+rt.pattern, rt.handle)
	}
	web, err := webHandler()
	if err != nil {
		return nil, err
	}
	mux.Handle("GET /", web)
	f.handler = newGuard(cfg.Token, cfg.AllowHosts, cfg.Addr).wrap(mux)
	return f, nil
}

// ServeHTTP implements http.Handler.
func (f *Fleet) ServeHTTP(w http.ResponseWriter, r *http.Request) { f.handler.ServeHTTP(w, r) }

// HTTPServer is as Server.HTTPServer.
func (f *Fleet) HTTPServer(addr string) *http.Server { return newHTTPServer(addr, f) }

// Close ends every event stream (with an end frame, "shutdown"). The
// turns go on: the workers run them.
func (f *Fleet) Close() error {
	f.cancel()
	return nil
}

// routes are Server's endpoints (one API, one openapi.json; a test holds
// them to each other), with what a fleet cannot do answered 501.
func (f *Fleet) routes() []route {
	cancel := "a fleet session's turn runs on a worker; cancelling it over the API is not supported (stop the worker: its turn goes to another one)"
	pending := "a fleet session's turn runs on a worker, whose approvals and questions fail closed (no one to ask); run it with an approval policy that does not ask"
	between := "a fleet session's settings change with its next turn: queue it with ptc run --nats URL --resume ID and the flags"
	return []route{
		{"GET", "/v1/sessions", f.listSessions},
		{"POST", "/v1/sessions", f.createSession},
		{"GET", "/v1/sessions/{id}", f.withID(f.getSession)},
		{"DELETE", "/v1/sessions/{id}", unsupported("deleting a fleet session over the API is not supported")},
		{"POST", "/v1/sessions/{id}/prompt", f.withID(f.postPrompt)},
		{"POST", "/v1/sessions/{id}/cancel", unsupported(cancel)},
		{"POST", "/v1/sessions/{id}/pending/{pid}", unsupported(pending)},
		{"POST", "/v1/sessions/{id}/settings", unsupported(between)},
		{"POST", "/v1/sessions/{id}/compact", unsupported("a fleet session compacts on its worker, when its context fills")},
		{"GET", "/v1/sessions/{id}/events", f.withID(f.stream)},
		{"GET", "/v1/sessions/{id}/calls/{call}/diff", unsupported("diffs are read from the workspace of the machine that ran the call; not served for a fleet")},
		{"GET", "/v1/presets", func(w http.ResponseWriter, r *http.Request) { listPresets(f.cfg.Home, w) }},
		{"GET", "/v1/models", func(w http.ResponseWriter, r *http.Request) { listModels(f.cfg.Home, w) }},
		{"GET", "/v1/openapi.json", serveOpenAPI},
		{"GET", "/v1/", notFound},
	}
}

func unsupported(why string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		fail(w, http.StatusNotImplemented, "not_supported", why)
	}
}

// withID resolves the {id} of the path in the catalog before h runs.
func (f *Fleet) withID(h func(http.ResponseWriter, *http.Request, string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		raw := r.PathValue("id")
		id, err := f.cfg.Catalog.Resolve(raw)
		switch {
		case errors.Is(err, session.ErrNotFound):
			fail(w, http.StatusNotFound, "not_found", fmt.Sprintf("no session %s", quote(raw)))
		case err != nil:
			fail(w, http.StatusBadRequest, "bad_id", err.Error())
		default:
			h(w, r, id)
		}
	}
}

// fleetRecord is a fleet session's record: running while a worker
// holds its lease, named in Worker.
func fleetRecord(sum session.Summary) Record {
	r := recordOf(sum)
	if sum.Owner.Live {
		r.Running, r.Worker, r.Status = true, sum.Owner.By, session.StatusRunning
	}
	return r
}

func (f *Fleet) listSessions(w http.ResponseWriter, r *http.Request) {
	sums, err := f.cfg.Catalog.List(r.Context(), session.ListOptions{Cwd: r.URL.Query().Get("workspace")})
	if err != nil {
		failFor(w, err)
		return
	}
	out := make([]Record, 0, len(sums))
	for _, sum := range sums {
		out = append(out, fleetRecord(sum))
	}
	writeJSON(w, http.StatusOK, out)
}

func (f *Fleet) getSession(w http.ResponseWriter, r *http.Request, id string) {
	ld, err := f.cfg.Catalog.Load(r.Context(), id)
	if err != nil {
		failFor(w, err)
		return
	}
	sum := session.SummaryOf(ld.Header, ld.Events)
	sum.Owner = f.cfg.Catalog.Holder(r.Context(), id)
	writeJSON(w, http.StatusOK, fleetRecord(sum))
}

// createSession makes the session on the server with the settings
// resolved on this machine, as `ptc run --nats` does; its turns run on
// the workers of the pool, which need its workspace (the same path).
func (f *Fleet) createSession(w http.ResponseWriter, r *http.Request) {
	var body Settings
	if err := readJSON(r, &body); err != nil {
		badRequest(w, err)
		return
	}
	set, err := body.settings("a directory the pool's workers have")
	if err != nil {
		badRequest(w, err)
		return
	}
	h, err := f.header(set)
	if err != nil {
		fail(w, http.StatusUnprocessableEntity, "bad_settings", err.Error())
		return
	}
	held, err := f.cfg.Catalog.Create(r.Context(), h, session.LogOptions{})
	if err != nil {
		failFor(w, err)
		return
	}
	if err := held.Close(); err != nil {
		failFor(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, fleetRecord(session.SummaryOf(held.SessionLog().Header(), nil)))
}

func (f *Fleet) header(set session.Settings) (session.Header, error) {
	if err := harness.CheckSettings(set); err != nil {
		return session.Header{}, err
	}
	h, notes, err := harness.NewHeader(f.cfg.Home, set, nil, nil)
	for _, n := range notes {
		f.cfg.Logf("new session: %s", n)
	}
	return h, err
}

// postPrompt queues text as the session's next turn for a worker of the
// pool; the stream shows it when a worker takes it (a worker/start
// naming the job).
func (f *Fleet) postPrompt(w http.ResponseWriter, r *http.Request, id string) {
	text, ok := readPrompt(w, r)
	if !ok {
		return
	}
	job := worker.Job{ID: worker.NewJobID(), Session: id, Input: text}
	if err := worker.Enqueue(r.Context(), f.cfg.JS, f.cfg.Pool, job); err != nil {
		failFor(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"queued": true, "job": job.ID})
}
