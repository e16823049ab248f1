package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/models"
)

var _ llm.Provider = (*Provider)(nil)

// maxErrorBody bounds how much of a failed answer's body is read.
const maxErrorBody = 64 << 10

// maxAnswerBytes bounds one answer (text, reasoning and tool-call
// arguments together), so that a server streaming without end cannot
// exhaust memory; the stall guard only catches silence.
const maxAnswerBytes = 64 << 20

var doneMarker = []byte("[DONE]")

// Provider streams chat completions from one OpenAI-compatible server. It
// is safe for concurrent use; each Stream call is independent except for
// what the provider learns about its server, once, for the rest of its
// life: that it rejects stream_options, and which field it streams
// reasoning in.
type Provider struct {
	cfg   Config
	http  *http.Client
	model models.Model // cfg.Model looked up once

	noStreamUsage atomic.Bool
	learnedField  atomic.Pointer[string]
}

// New builds a Provider for cfg.
func New(cfg Config) *Provider {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.StallTimeout == 0 {
		cfg.StallTimeout = DefaultStallTimeout
	}
	if cfg.Models == nil {
		cfg.Models = models.Builtin()
	}
	return &Provider{cfg: cfg, http: hc, model: cfg.Models.Lookup(cfg.Model)}
}

// Name is the provider name for request headers ("deepseek", "openai").
func (p *Provider) Name() string {
	if p.cfg.Name == "" {
		return "openai"
	}
	return p.cfg.Name
}

// Model is the model used for requests that name none.
func (p *Provider) Model() string { return p.cfg.Model }

// Stream performs one streamed request; see llm.Provider for the contract.
// stream_options is not sent to a model the table marks NoStreamOptions
// (Mistral's API answers 422). Another server that rejects it is asked
// again at once without it, and never sent it again by this provider;
// usage is then whatever the server sends unasked. A 422 for a request
// that carried no stream_options is the server's answer as it is.
func (p *Provider) Stream(ctx context.Context, req llm.Request, onChunk func(llm.Chunk)) (*llm.Response, error) {
	if onChunk == nil {
		onChunk = func(llm.Chunk) {}
	}
	model := req.Model
	if model == "" {
		model = p.cfg.Model
	}
	for {
		noUsage := p.noStreamUsage.Load() || p.lookup(model).NoStreamOptions
		o := wireOptions{reasoningField: p.reasoningField(model), noStreamUsage: noUsage}
		resp, err := p.attempt(ctx, req, model, o, onChunk)
		if errors.Is(err, errStreamOptionsRejected) {
			p.noStreamUsage.Store(true)
			continue
		}
		return resp, err
	}
}

// lookup is the table's entry for model (the configured model's is kept).
func (p *Provider) lookup(model string) models.Model {
	if model == p.model.ID {
		return p.model
	}
	return p.cfg.Models.Lookup(model)
}

// reasoningField is where reasoning goes back for model: the field this
// server was seen streaming (the server knows its own dialect best), else
// the table's answer for the model (a resumed session's first request has
// seen no stream yet), else none.
func (p *Provider) reasoningField(model string) string {
	if f := p.learnedField.Load(); f != nil {
		return *f
	}
	return p.lookup(model).ReasoningField
}

// errStreamOptionsRejected is attempt's signal that the server refused
// stream_options and the request should go again without it.
var errStreamOptionsRejected = errors.New("the server rejected stream_options")

// attempt is one HTTP request and the reading of its stream.
func (p *Provider) attempt(ctx context.Context, req llm.Request, model string, o wireOptions, onChunk func(llm.Chunk)) (*llm.Response, error) {
	body, err := json.Marshal(toWire(req, model, o))
	if err != nil {
		return nil, &llm.Error{Kind: llm.ErrOther, Err: err, Message: fmt.Sprintf("cannot encode the request: %v", err)}
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	dog := newWatchdog(p.cfg.StallTimeout, cancel)
	defer dog.stop()
	at := attempt{p: p, model: model, dog: dog, requestBytes: len(body)}
	a := newAssembler(onChunk)

	resp, err := p.post(sctx, body)
	if err != nil {
		return at.fail(ctx, a, err)
	}
	defer resp.Body.Close()
	at.header = resp.Header
	dog.touch()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		if !o.noStreamUsage && rejectsStreamOptions(resp.StatusCode, msg) {
			return nil, errStreamOptionsRejected
		}
		return nil, at.statusError(resp.StatusCode, msg)
	}
	done, err := at.read(ctx, a, resp.Body)
	if err != nil {
		return at.fail(ctx, a, err)
	}
	if a.field != "" {
		p.learnedField.Store(&a.field)
	}
	answer, err := at.result(a, done)
	if answer != nil {
		answer.Usage.CostUSD = p.lookup(model).Cost(answer.Usage)
	}
	return answer, err
}

// read folds the stream's events into a until [DONE] (done true) or the
// end of the body. A chunk the adapter cannot read, an error object and an
// answer over maxAnswerBytes come back as *llm.Error; a read failure as
// itself, for fail to classify.
func (at attempt) read(ctx context.Context, a *assembler, body io.ReadCloser) (done bool, err error) {
	base := at.p.cfg.BaseURL
	sse := newSSEReader(&activityBody{ReadCloser: body, touch: at.dog.touch})
	for {
		data, err := sse.next()
		if errors.Is(err, io.EOF) && ctx.Err() == nil && !at.dog.fired.Load() {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if bytes.Equal(data, doneMarker) {
			return true, nil
		}
		var c wireChunk
		if err := json.Unmarshal(data, &c); err != nil {
			return false, &llm.Error{Kind: llm.ErrServer, Err: err,
				Message: fmt.Sprintf("the server at %s sent a malformed stream chunk (%v): %s", base, err, clean(string(data), 200))}
		}
		if werr := a.add(&c); werr != nil {
			return false, at.chunkError(werr)
		}
		if a.size() > maxAnswerBytes {
			return false, &llm.Error{Kind: llm.ErrServer,
				Message: fmt.Sprintf("the server at %s sent an answer larger than %d bytes; it was stopped", base, maxAnswerBytes)}
		}
	}
}

func (p *Provider) post(ctx context.Context, body []byte) (*http.Response, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, p.cfg.BaseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "text/event-stream")
	hr.Header.Set("User-Agent", "ptc")
	if p.cfg.APIKey != "" {
		hr.Header.Set("Authorization", "Bearer "+p.cfg.APIKey)
	}
	return p.http.Do(hr)
}

// rejectsStreamOptions recognises a 400/422 whose body is about
// stream_options (Mistral: "Extra inputs are not permitted" at
// body.stream_options.include_usage; old Azure: "Unrecognized request
// argument supplied: stream_options").
func rejectsStreamOptions(status int, body []byte) bool {
	return (status == http.StatusBadRequest || status == http.StatusUnprocessableEntity) &&
		bytes.Contains(bytes.ToLower(body), []byte("stream_options"))
}

// attempt carries what failure classification needs about one request.
type attempt struct {
	p            *Provider
	model        string
	dog          *watchdog
	header       http.Header // of the response, once there is one
	requestBytes int
}

// fail turns err into the Stream result: the partial answer plus the
// context's error when the caller cancelled, a timeout when the stream
// stalled, and a classified *llm.Error otherwise.
func (at attempt) fail(ctx context.Context, a *assembler, err error) (*llm.Response, error) {
	if ctx.Err() != nil {
		return a.aborted(), ctx.Err()
	}
	var e *llm.Error
	if errors.As(err, &e) {
		return nil, e
	}
	if at.dog.fired.Load() {
		return nil, &llm.Error{Kind: llm.ErrTimeout, Err: err,
			Message: fmt.Sprintf("the server at %s sent nothing for %s", at.p.cfg.BaseURL, at.p.cfg.StallTimeout)}
	}
	return nil, at.classify(err)
}

// result decides what a stream that ended without an error object means.
// A finish reason that does not complete an answer is a failure; nothing
// to act on is an empty response; no finish reason and no [DONE] is a
// stream cut short, retried like a broken connection and never taken as
// a complete answer.
func (at attempt) result(a *assembler, done bool) (*llm.Response, error) {
	base := at.p.cfg.BaseURL
	if a.finish != "" && !completes(a.finish) {
		return nil, at.finishError(a.finish)
	}
	cut := a.finish == "" && !done
	if a.empty() {
		msg := fmt.Sprintf("the server at %s ended the answer without any text or tool call", base)
		if cut {
			msg += " (the stream stopped before a finish reason)"
		}
		return nil, &llm.Error{Kind: llm.ErrEmpty, Message: msg}
	}
	if cut {
		return nil, &llm.Error{Kind: llm.ErrTransport,
			Message: fmt.Sprintf("the stream from %s ended before the answer was finished (no finish_reason, no [DONE]); the partial answer is discarded", base)}
	}
	return a.response(), nil
}

// finishError explains a finish reason that is not a completed answer.
func (at attempt) finishError(f string) *llm.Error {
	base := at.p.cfg.BaseURL
	switch f {
	case "content_filter":
		return &llm.Error{Kind: llm.ErrContentFilter,
			Message: fmt.Sprintf("the server at %s stopped the answer: its content filter blocked it (finish_reason content_filter)", base)}
	case "insufficient_system_resource":
		return &llm.Error{Kind: llm.ErrServer,
			Message: fmt.Sprintf("the server at %s ran out of capacity and cut the answer off (finish_reason insufficient_system_resource)", base)}
	case "error":
		return &llm.Error{Kind: llm.ErrServer,
			Message: fmt.Sprintf("the server at %s ended the answer with an error (finish_reason error)", base)}
	}
	return &llm.Error{Kind: llm.ErrOther,
		Message: fmt.Sprintf("the server at %s ended the answer with finish_reason %q, which ptc does not know, so the answer is not taken as complete", base, clean(f, 60))}
}

// activityBody reports every read that returns
// bytes, and the watchdog cancels the attempt after StallTimeout of
// silence.
type activityBody struct {
	io.ReadCloser
	touch func()
}

func (b *activityBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.touch()
	}
	return n, err
}

// watchdog cancels the attempt when no byte arrives for d.
type watchdog struct {
	t     *time.Timer
	d     time.Duration
	fired atomic.Bool
}

func newWatchdog(d time.Duration, cancel context.CancelFunc) *watchdog {
	w := &watchdog{d: d}
	if d > 0 {
		w.t = time.AfterFunc(d, func() { w.fired.Store(true); cancel() })
	}
	return w
}

func (w *watchdog) touch() {
	if w.t != nil && !w.fired.Load() {
		w.t.Reset(w.d)
	}
}

func (w *watchdog) stop() {
	if w.t != nil {
		w.t.Stop()
	}
}

// clean makes server-controlled text safe to show: one line, no control
// characters (a hostile server must not drive the terminal), at most n
// runes.
func clean(s string, n int) string {
	var b strings.Builder
	count := 0
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			r = ' '
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			continue
		}
		if count == n {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
		count++
	}
	return strings.TrimSpace(b.String())
}
