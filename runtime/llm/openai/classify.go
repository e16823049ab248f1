package openai

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// classify maps a net/http failure to an *llm.Error whose message says
// what happened at which server and, when the fix is the user's, what to
// do.
func (at attempt) classify(err error) *llm.Error {
	base := at.p.cfg.BaseURL
	switch {
	case errors.Is(err, errEventTooLarge):
		return &llm.Error{Kind: llm.ErrServer, Err: err, Message: fmt.Sprintf("the server at %s sent %v", base, err)}
	case isTimeout(err):
		return &llm.Error{Kind: llm.ErrTimeout, Err: err,
			Message: fmt.Sprintf("the request to %s timed out (%v)", base, err)}
	case isTransport(err) && at.header != nil:
		return &llm.Error{Kind: llm.ErrTransport, Err: err,
			Message: fmt.Sprintf("the connection to %s broke in the middle of the answer (%v)", base, rootCause(err))}
	case unreachable(err) != "":
		return &llm.Error{Kind: llm.ErrUnreachable, Err: err,
			Message: fmt.Sprintf("the model server at %s cannot be reached: %s (%v); check that it is running and that --base-url or OPENAI_BASE_URL is right", base, unreachable(err), rootCause(err))}
	case isTransport(err):
		return &llm.Error{Kind: llm.ErrTransport, Err: err,
			Message: fmt.Sprintf("the model server at %s is unreachable (%v): check that it is running and that --base-url or OPENAI_BASE_URL is right", base, rootCause(err))}
	}
	return &llm.Error{Kind: llm.ErrOther, Err: err, Message: fmt.Sprintf("request to %s failed: %v", base, err)}
}

// statusError explains a non-2xx answer from its status and body.
func (at attempt) statusError(status int, body []byte) *llm.Error {
	cfg := at.p.cfg
	serverMsg := errorBodyMessage(status, body)
	e := &llm.Error{Kind: llm.KindForStatus(status), Status: status, RetryAfter: retryAfter(at.header, cfg.Now())}
	if (status == http.StatusBadRequest || status == http.StatusRequestEntityTooLarge || status == http.StatusUnprocessableEntity) &&
		overflowMessage(serverMsg) {
		at.overflow(e, serverMsg)
		return e
	}
	switch {
	case e.Kind == llm.ErrAuth && cfg.APIKey == "":
		withheld := ""
		if cfg.WithheldKey != "" {
			withheld = fmt.Sprintf("; %s is sent only to its own provider's host", cfg.WithheldKey)
		}
		e.Message = fmt.Sprintf("the server at %s requires an API key: set %s and try again%s (server said: %s)", cfg.BaseURL, cfg.KeyEnv, withheld, serverMsg)
	case e.Kind == llm.ErrAuth:
		e.Message = fmt.Sprintf("the server at %s rejected the API key from %s: check that the key is valid and may use model %q (server said: %s)", cfg.BaseURL, cfg.KeyEnv, at.model, serverMsg)
	case e.Kind == llm.ErrPayment:
		e.Message = fmt.Sprintf("the account behind %s has insufficient balance at %s: top it up and try again (server said: %s)", cfg.KeyEnv, cfg.BaseURL, serverMsg)
	case e.Kind == llm.ErrRateLimit:
		e.Message = fmt.Sprintf("rate limited by %s: %s", cfg.BaseURL, serverMsg)
	case e.Kind == llm.ErrServer:
		e.Message = fmt.Sprintf("the server at %s failed: %s", cfg.BaseURL, serverMsg)
	case status == http.StatusNotFound:
		e.Message = fmt.Sprintf("the server at %s answered 404 (%s): check the base URL (OpenAI-compatible APIs usually end in /v1) and the model name %q", cfg.BaseURL, serverMsg, at.model)
	case e.Kind == llm.ErrBadRequest:
		e.Message = fmt.Sprintf("the server at %s rejected the request: %s", cfg.BaseURL, serverMsg)
	default:
		e.Message = fmt.Sprintf("unexpected answer from %s: %s", cfg.BaseURL, serverMsg)
	}
	return e
}

// chunkError is an error object inside the stream. Its code decides the
// kind where it says something (a status number, a rate limit, an
// over-long request); otherwise the server broke off the answer, which is
// worth another attempt.
func (at attempt) chunkError(we *wireError) *llm.Error {
	msg := clean(we.Message, 500)
	e := &llm.Error{Kind: llm.ErrServer}
	code := strings.ToLower(we.Code)
	if n, err := strconv.Atoi(code); err == nil && n >= 400 && n <= 599 {
		e.Kind = llm.KindForStatus(n)
	}
	switch {
	case code == "context_length_exceeded" || overflowMessage(msg):
		at.overflow(e, msg)
		return e
	case strings.Contains(code, "rate_limit") || strings.Contains(we.Type, "rate_limit"):
		e.Kind = llm.ErrRateLimit
	}
	e.Message = fmt.Sprintf("the server at %s reported an error mid-stream: %s", at.p.cfg.BaseURL, msg)
	return e
}

// overflowHints are lower-case phrases servers use for a request that
// does not fit the context window (OpenAI and DeepSeek: "maximum context
// length is N tokens"; vLLM, llama.cpp, Anthropic-style gateways: the
// others).
var overflowHints = []string{
	"maximum context length", "context_length_exceeded", "context length exceeded", "context window",
	"exceeds the context", "prompt is too long", "input is too long", "reduce the length of the messages",
	"too many tokens", "maximum input length",
}

func overflowMessage(msg string) bool {
	lower := strings.ToLower(msg)
	for _, h := range overflowHints {
		if strings.Contains(lower, h) {
			return true
		}
	}
	return false
}

var (
	windowRe    = regexp.MustCompile(`(?i)(?:maximum context length|context window|context length) (?:is|of) (\d+)`)
	requestedRe = regexp.MustCompile(`(?i)(?:you requested|requested|resulted in|has) (\d+) tokens`)
)

// overflow fills e as a context-overflow failure: the request's size and
// the window as the server stated them, else ptc's estimate (a token per
// four bytes of request) and the model table's window.
func (at attempt) overflow(e *llm.Error, serverMsg string) {
	e.Kind = llm.ErrContextOverflow
	e.RequestTokens, e.ContextWindow = numberIn(requestedRe, serverMsg), numberIn(windowRe, serverMsg)
	size := fmt.Sprintf("%d tokens", e.RequestTokens)
	if e.RequestTokens == 0 {
		e.RequestTokens = at.requestBytes / 4
		size = fmt.Sprintf("about %d tokens", e.RequestTokens)
	}
	if e.ContextWindow == 0 {
		e.ContextWindow = at.p.lookup(at.model).ContextWindow
	}
	e.Message = fmt.Sprintf("the request (%s) does not fit the context window of %s (%d tokens): the conversation must be compacted or shortened (server said: %s)",
		size, at.model, e.ContextWindow, serverMsg)
}

func numberIn(re *regexp.Regexp, s string) int {
	m := re.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// errorBodyMessage is the readable part of an error body: the message of
// an OpenAI-style {"error": {...}} or {"error": "…"}, a top-level
// "message" (Mistral's may be an object listing what it rejected) or
// "detail" (FastAPI servers), else the body itself, cleaned and cut.
func errorBodyMessage(status int, body []byte) string {
	var env struct {
		Error   *wireError      `json:"error"`
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &env) == nil {
		switch {
		case env.Error != nil && env.Error.Message != "":
			return clean(env.Error.Message, 500)
		case len(env.Message) > 0:
			return clean(messageText(env.Message), 500)
		case len(env.Detail) > 0:
			return clean(messageText(env.Detail), 500)
		}
	}
	if msg := clean(string(body), 500); msg != "" {
		return msg
	}
	return fmt.Sprintf("%d %s", status, http.StatusText(status))
}

// retryAfter reads the server's wait hint: retry-after-ms (OpenAI), or
// Retry-After as seconds or an HTTP date. Zero means no usable hint.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s > 0 {
			return time.Duration(s * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) ||
		(errors.As(err, &ne) && ne.Timeout())
}

func isTransport(err error) bool {
	var opErr *net.OpError
	var dnsErr *net.DNSError
	var urlErr *url.Error
	return errors.As(err, &opErr) || errors.As(err, &dnsErr) || errors.As(err, &urlErr) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE)
}

// unreachable says why a connection could not be made when waiting
// would not change it (the connection refused, a host name that does
// not exist, a certificate or TLS handshake that fails), "" otherwise. A
// DNS failure that may be temporary (a timeout, SERVFAIL) is not one.
func unreachable(err error) string {
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var recErr tls.RecordHeaderError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the connection was refused"
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return "the host name does not resolve"
	case errors.As(err, &certErr), errors.As(err, &unknownCA), errors.As(err, &hostErr):
		return "its TLS certificate is not trusted"
	case errors.As(err, &recErr):
		return "it does not speak TLS (is the URL http:, not https:?)"
	}
	return ""
}

// rootCause strips url.Error's "Post \"…\":" prefix, which repeats the URL
// the message already names.
func rootCause(err error) error {
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return urlErr.Err
	}
	return err
}
