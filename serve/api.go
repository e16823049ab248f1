package serve

import (
	"context"
	"errors"
	"net/http"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/presets"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// route is one API endpoint; openapi.json documents each (a test holds
// the two to each other).
type route struct {
	method, pattern string
	handle          http.HandlerFunc
}

func (s *Server) routes() []route {
	return []route{
		{"GET", "/v1/sessions", s.listSessions},
		{"POST", "/v1/sessions", s.createSession},
		{"GET", "/v1/sessions/{id}", s.withID(s.getSession)},
		{"DELETE", "/v1/sessions/{id}", s.withID(s.deleteSession)},
		{"POST", "/v1/sessions/{id}/prompt", s.withID(s.postPrompt)},
		{"POST", "/v1/sessions/{id}/cancel", s.withID(s.postCancel)},
		{"POST", "/v1/sessions/{id}/pending/{pid}", s.withID(s.postAnswer)},
		{"POST", "/v1/sessions/{id}/settings", s.withID(s.postSettings)},
		{"POST", "/v1/sessions/{id}/compact", s.withID(s.postCompact)},
		{"GET", "/v1/sessions/{id}/events", s.withID(s.stream)},
		{"GET", "/v1/sessions/{id}/calls/{call}/diff", s.withID(s.callDiff)},
		{"GET", "/v1/presets", func(w http.ResponseWriter, r *http.Request) { listPresets(s.cfg.Home, w) }},
		{"GET", "/v1/models", func(w http.ResponseWriter, r *http.Request) { listModels(s.cfg.Home, w) }},
		{"GET", "/v1/openapi.json", serveOpenAPI},
		{"GET", "/v1/", notFound},
	}
}

func notFound(w http.ResponseWriter, r *http.Request) {
	fail(w, http.StatusNotFound, "not_found", "no such endpoint: "+quote(r.URL.Path)+"; see /v1/openapi.json")
}

// withID resolves the {id} of the path before h runs.
func (s *Server) withID(h func(http.ResponseWriter, *http.Request, string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if id, ok := s.resolve(w, r.PathValue("id")); ok {
			h(w, r, id)
		}
	}
}

// failFor answers err with the status it calls for.
func failFor(w http.ResponseWriter, err error) {
	var elsewhere errElsewhere
	var answered *tools.AnsweredError
	switch {
	case errors.As(err, &elsewhere):
		fail(w, http.StatusConflict, "run_elsewhere", err.Error())
	case errors.Is(err, harness.ErrBusy):
		fail(w, http.StatusConflict, "busy", "a turn is running in this session; cancel it or wait for it to end")
	case errors.As(err, &answered):
		msg := "this request was already answered"
		if answered.Reply.Answer != "" {
			msg += " (" + answered.Reply.Answer + ")"
		} else if answered.Err != nil {
			msg = "this request ended without an answer: " + answered.Err.Error()
		}
		writeJSON(w, http.StatusConflict, apiError{Error: "already_answered", Message: msg, Answer: answered.Reply.Answer})
	case errors.Is(err, tools.ErrNoRequest):
		fail(w, http.StatusNotFound, "not_pending", "no such pending request in this session (it may have ended with its turn)")
	case errors.Is(err, errClosed):
		fail(w, http.StatusServiceUnavailable, "shutting_down", err.Error())
	case errors.Is(err, session.ErrNotFound):
		fail(w, http.StatusNotFound, "not_found", err.Error())
	default:
		fail(w, http.StatusInternalServerError, "internal", err.Error())
	}
}

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	sums, err := s.cat().List(r.Context(), session.ListOptions{Cwd: r.URL.Query().Get("workspace")})
	if err != nil {
		failFor(w, err)
		return
	}
	out := make([]Record, 0, len(sums))
	looked := 0
	for _, sum := range sums {
		// Finding the requests a stopped process left means reading the
		// store; a listing does it for its most recent candidates only
		// (GET of one session always does).
		deep := looked < maxStaleLookups
		if deep && mayHaveStale(sum) && s.served(sum.Header.ID) == nil {
			looked++
		}
		out = append(out, s.record(r.Context(), sum, deep))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request, id string) {
	sum, err := s.cat().Summary(r.Context(), id)
	if err != nil {
		failFor(w, err)
		return
	}
	writeJSON(w, http.StatusOK, s.record(r.Context(), sum, true))
}

// maxStaleLookups bounds the stores a listing reads to find pending
// requests left by a stopped process.
const maxStaleLookups = 16

// mayHaveStale reports whether a session nobody runs may hold requests
// left by a stopped process: its last turn was cut short.
func mayHaveStale(sum session.Summary) bool {
	return !sum.Owner.Live && (sum.Status == session.StatusRunning || sum.Status == session.ReasonInterrupted)
}

// record completes a listed session's record: live state and pending
// requests for a served one, requests left by a stopped process for one
// nobody runs (when deep).
func (s *Server) record(ctx context.Context, sum session.Summary, deep bool) Record {
	id := sum.Header.ID
	if sv := s.served(id); sv != nil {
		return s.servedRecord(sv)
	}
	r := recordOf(sum)
	if deep && mayHaveStale(sum) {
		if ld, err := s.cat().Load(ctx, id); err == nil {
			set, _ := session.CurrentSettings(ld.Header, ld.Events)
			r.Pending = nonNilPending(staleRequests(ld.Events, set.Workspace, set.Sandbox))
			if len(r.Pending) > 0 {
				r.Status = StatusWaiting
			}
		}
	}
	return r
}

func (s *Server) servedRecord(sv *served) Record {
	evs := sv.sess.Events()
	sum := session.SummaryOf(sv.sess.Header(), evs)
	set := sv.sess.Settings()
	sum.Settings = set
	r := recordOf(sum)
	r.Served = true
	r.Running, r.Queued, r.Error = sv.state()
	r.Model = modelInfo(sv.sess.Model())
	r.PlanMode = sv.sess.PlanMode()
	r.Notices = sv.sess.Notices()
	r.Pending = []Pending{}
	for _, q := range sv.sess.Approvals().Pending() {
		r.Pending = append(r.Pending, describe(q.ID, q, set.Workspace, set.Sandbox))
	}
	switch {
	case len(r.Pending) > 0:
		r.Status = StatusWaiting
	case r.Running:
		r.Status = session.StatusRunning
	}
	return r
}

func nonNilPending(p []Pending) []Pending {
	if p == nil {
		return []Pending{}
	}
	return p
}

func (s *Server) createSession(w http.ResponseWriter, r *http.Request) {
	var body Settings
	if err := readJSON(r, &body); err != nil {
		badRequest(w, err)
		return
	}
	set, err := body.settings("a directory on the server's machine")
	if err != nil {
		badRequest(w, err)
		return
	}
	sv, err := s.create(r.Context(), set)
	if err != nil {
		if errors.Is(err, errClosed) {
			failFor(w, err)
			return
		}
		// Bad settings (an unknown preset, no key for the model, no
		// such workspace) are the caller's to fix.
		fail(w, http.StatusUnprocessableEntity, "bad_settings", err.Error())
		return
	}
	writeJSON(w, http.StatusCreated, s.servedRecord(sv))
}

func (s *Server) deleteSession(w http.ResponseWriter, r *http.Request, id string) {
	if err := s.remove(id); err != nil {
		failFor(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) postPrompt(w http.ResponseWriter, r *http.Request, id string) {
	text, ok := readPrompt(w, r)
	if !ok {
		return
	}
	sv, err := s.acquire(r.Context(), id)
	if err != nil {
		failFor(w, err)
		return
	}
	queued := s.prompt(sv, text)
	writeJSON(w, http.StatusAccepted, map[string]bool{"queued": queued})
}

func (s *Server) postCancel(w http.ResponseWriter, r *http.Request, id string) {
	var out struct {
		Cancelled bool     `json:"cancelled"`
		Dropped   []string `json:"dropped"`
	}
	out.Dropped = []string{}
	if sv := s.served(id); sv != nil {
		out.Dropped = append(out.Dropped, sv.sess.TakeFollowups()...)
		out.Cancelled = sv.sess.Cancel()
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) postAnswer(w http.ResponseWriter, r *http.Request, id string) {
	var body answerBody
	if err := readJSON(r, &body); err != nil {
		badRequest(w, err)
		return
	}
	pid := r.PathValue("pid")
	if sv := s.served(id); sv != nil {
		ap := sv.sess.Approvals()
		kind := "" // a request no longer open: its answer can only lose
		for _, q := range ap.Pending() {
			if q.ID == pid {
				kind = q.Kind
			}
		}
		ans, err := normalAnswer(kind, body)
		if err != nil {
			badRequest(w, err)
			return
		}
		if err := ap.Answer(pid, tools.Reply{Answer: ans, Via: "serve"}); err != nil {
			if won, ok := s.wonStale(id, pid); ok {
				err = &tools.AnsweredError{ID: pid, Reply: tools.Reply{Answer: won}}
			}
			failFor(w, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": pid, "answer": ans, "resumed": false})
		return
	}
	ans, err := s.answerStale(r.Context(), id, pid, body)
	if err != nil {
		var bad badAnswer
		if errors.As(err, &bad) {
			badRequest(w, err)
			return
		}
		failFor(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": pid, "answer": ans, "resumed": true})
}

// settingsBody changes the named settings between turns; plan_mode
// switches plan mode.
type settingsBody struct {
	Preset        *string `json:"preset"`
	Model         *string `json:"model"`
	BaseURL       *string `json:"base_url"`
	Sandbox       *string `json:"sandbox"`
	Approval      *string `json:"approval"`
	MaxSteps      *int    `json:"max_steps"`
	ContextWindow *int    `json:"context_window"`
	NoCompact     *bool   `json:"no_compact"`
	Network       *bool   `json:"network"`
	PlanMode      *bool   `json:"plan_mode"`
}

func (b settingsBody) change() (session.Settings, []session.Field) {
	var s session.Settings
	var fields []session.Field
	str := func(p *string, dst *string, f session.Field) {
		if p != nil {
			*dst = *p
			fields = append(fields, f)
		}
	}
	str(b.Preset, &s.Preset, session.FieldPreset)
	str(b.Model, &s.Model, session.FieldModel)
	str(b.BaseURL, &s.BaseURL, session.FieldBaseURL)
	str(b.Sandbox, &s.Sandbox, session.FieldSandbox)
	str(b.Approval, &s.Approval, session.FieldApproval)
	if b.MaxSteps != nil {
		s.MaxSteps, fields = *b.MaxSteps, append(fields, session.FieldMaxSteps)
	}
	if b.ContextWindow != nil {
		s.ContextWindow, fields = *b.ContextWindow, append(fields, session.FieldContextWindow)
	}
	if b.NoCompact != nil {
		s.NoCompact, fields = *b.NoCompact, append(fields, session.FieldNoCompact)
	}
	if b.Network != nil {
		s.Network, fields = *b.Network, append(fields, session.FieldNetwork)
	}
	return s, fields
}

func (s *Server) postSettings(w http.ResponseWriter, r *http.Request, id string) {
	var body settingsBody
	if err := readJSON(r, &body); err != nil {
		badRequest(w, err)
		return
	}
	change, fields := body.change()
	if err := harness.CheckSettings(change); err != nil {
		badRequest(w, err)
		return
	}
	sv, err := s.acquire(r.Context(), id)
	if err != nil {
		failFor(w, err)
		return
	}
	var bad error
	err = s.exclusive(sv, func() error {
		if len(fields) > 0 {
			if bad = sv.sess.Change(s.ctx, change, fields...); bad != nil {
				return nil
			}
		}
		if body.PlanMode != nil {
			bad = sv.sess.SetPlanMode(s.ctx, *body.PlanMode)
		}
		return nil
	})
	switch {
	case err != nil:
		failFor(w, err)
	case bad != nil:
		fail(w, http.StatusUnprocessableEntity, "bad_settings", bad.Error())
	default:
		writeJSON(w, http.StatusOK, s.servedRecord(sv))
	}
}

func (s *Server) postCompact(w http.ResponseWriter, r *http.Request, id string) {
	sv, err := s.acquire(r.Context(), id)
	if err != nil {
		failFor(w, err)
		return
	}
	var out struct {
		Passes       int    `json:"passes"`
		TokensBefore int    `json:"tokens_before"`
		TokensAfter  int    `json:"tokens_after"`
		Failure      string `json:"failure,omitempty"`
		Skipped      string `json:"skipped,omitempty"`
	}
	err = s.exclusive(sv, func() error {
		res, err := sv.sess.Compact(s.ctx)
		out.Passes, out.TokensBefore, out.TokensAfter, out.Failure, out.Skipped = res.Passes, res.TokensBefore, res.TokensAfter, res.Failure, res.Skipped
		return err
	})
	if err != nil {
		failFor(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// listPresets answers GET /v1/presets from home's presets.
func listPresets(home *harness.Home, w http.ResponseWriter) {
	set, err := home.Presets()
	if err != nil {
		failFor(w, err)
		return
	}
	type preset struct {
		ID          string `json:"id"`
		Description string `json:"description"`
		Default     bool   `json:"default,omitempty"`
	}
	out := []preset{}
	for _, p := range set.List() {
		out = append(out, preset{p.ID, p.Description, p.ID == presets.DefaultID})
	}
	writeJSON(w, http.StatusOK, out)
}

// listModels answers GET /v1/models from home's model table.
func listModels(home *harness.Home, w http.ResponseWriter) {
	t, err := home.Models()
	if err != nil {
		failFor(w, err)
		return
	}
	out := []*ModelInfo{}
	for _, m := range t.List() {
		out = append(out, modelInfo(m))
	}
	writeJSON(w, http.StatusOK, out)
}

// badAnswer is an answer that does not fit its request (400).
type badAnswer struct{ error }

func (b badAnswer) Unwrap() error { return b.error }
