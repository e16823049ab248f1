package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/ptc-dev/ptc/runtime/llm"
)

var _ llm.Provider = (*Provider)(nil)

// Provider streams chat completions from one OpenAI-compatible server. It
// is safe for concurrent use; each Stream call is independent.
type Provider struct {
	cfg  Config
	http *http.Client
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
	return &Provider{cfg: cfg, http: hc}
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
func (p *Provider) Stream(ctx context.Context, req llm.Request, onChunk func(llm.Chunk)) (*llm.Response, error) {
	if onChunk == nil {
		onChunk = func(llm.Chunk) {}
	}
	wire := toWire(req, p.cfg.Model)
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	dog := newWatchdog(p.cfg.StallTimeout, cancel)
	defer dog.stop()

	rec := &recorder{doer: p.http, touch: dog.touch}
	cc := goopenai.DefaultConfig(p.cfg.APIKey)
	cc.BaseURL = p.cfg.BaseURL
	cc.HTTPClient = rec
	cc.EmptyMessagesLimit = 1 << 20 // keep-alive comments are not a failure
	a := newAssembler(onChunk)
	at := attempt{p: p, model: wire.Model, rec: rec, dog: dog}

	stream, err := goopenai.NewClientWithConfig(cc).CreateChatCompletionStream(sctx, wire)
	if err != nil {
		return at.fail(ctx, a, err)
	}
	defer stream.Close()
	for {
		raw, err := stream.RecvRaw()
		if errors.Is(err, io.EOF) && ctx.Err() == nil && !dog.fired.Load() {
			break
		}
		if err != nil {
			return at.fail(ctx, a, err)
		}
		var c streamChunk
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, &llm.Error{Kind: llm.ErrServer, Err: err,
				Message: fmt.Sprintf("the server at %s sent a malformed stream chunk (%v)", p.cfg.BaseURL, err)}
		}
		a.add(&c)
	}
	if a.empty() {
		return nil, &llm.Error{Kind: llm.ErrEmpty,
			Message: fmt.Sprintf("the server at %s ended the answer without any text or tool call", p.cfg.BaseURL)}
	}
	return a.response(), nil
}

// attempt carries what failure classification needs about one Stream call.
type attempt struct {
	p     *Provider
	model string
	rec   *recorder
	dog   *watchdog
}

// fail turns err into the Stream result: the partial answer plus the
// context's error when the caller cancelled, a timeout when the stream
// stalled, and a classified *llm.Error otherwise.
func (at attempt) fail(ctx context.Context, a *assembler, err error) (*llm.Response, error) {
	if ctx.Err() != nil {
		return a.aborted(), ctx.Err()
	}
	if at.dog.fired.Load() {
		return nil, &llm.Error{Kind: llm.ErrTimeout, Err: err,
			Message: fmt.Sprintf("the server at %s sent nothing for %s", at.p.cfg.BaseURL, at.p.cfg.StallTimeout)}
	}
	return nil, at.classify(err)
}

// recorder is the HTTPDoer handed to go-openai: it remembers the response
// status and headers (go-openai drops Retry-After) and reports every body
// read to the stall watchdog.
type recorder struct {
	doer   *http.Client
	touch  func()
	header http.Header
}

func (r *recorder) Do(req *http.Request) (*http.Response, error) {
	resp, err := r.doer.Do(req)
	if err != nil {
		return nil, err
	}
	r.touch()
	r.header = resp.Header
	resp.Body = &activityBody{ReadCloser: resp.Body, touch: r.touch}
	return resp, nil
}

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
