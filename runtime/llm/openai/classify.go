package openai

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// classify maps a go-openai or net/http failure to an *llm.Error whose
// message says what happened at which server and, when the fix is the
// user's, what to do.
func (at attempt) classify(err error) *llm.Error {
	base := at.p.cfg.BaseURL
	var apiErr *goopenai.APIError
	var reqErr *goopenai.RequestError
	switch {
	case errors.As(err, &apiErr) && apiErr.HTTPStatusCode != 0:
		return at.statusError(apiErr.HTTPStatusCode, apiErr.Message, err)
	case errors.As(err, &reqErr):
		return at.statusError(reqErr.HTTPStatusCode, bodyMessage(reqErr), err)
	case errors.As(err, &apiErr):
		return &llm.Error{Kind: llm.ErrServer, Err: err,
			Message: fmt.Sprintf("the server at %s reported an error mid-stream: %s", base, apiErr.Message)}
	case isTimeout(err):
		return &llm.Error{Kind: llm.ErrTimeout, Err: err,
			Message: fmt.Sprintf("the request to %s timed out (%v)", base, err)}
	case isTransport(err) && at.rec.header != nil:
		return &llm.Error{Kind: llm.ErrTransport, Err: err,
			Message: fmt.Sprintf("the connection to %s broke in the middle of the answer (%v)", base, rootCause(err))}
	case isTransport(err):
		return &llm.Error{Kind: llm.ErrTransport, Err: err,
			Message: fmt.Sprintf("the model server at %s is unreachable (%v): check that it is running and that --base-url or OPENAI_BASE_URL is right", base, rootCause(err))}
	case errors.Is(err, goopenai.ErrTooManyEmptyStreamMessages):
		return &llm.Error{Kind: llm.ErrServer, Err: err,
			Message: fmt.Sprintf("the server at %s sent a stream with no data", base)}
	}
	return &llm.Error{Kind: llm.ErrOther, Err: err, Message: fmt.Sprintf("request to %s failed: %v", base, err)}
}

// statusError explains a non-2xx answer.
func (at attempt) statusError(status int, serverMsg string, err error) *llm.Error {
	cfg := at.p.cfg
	e := &llm.Error{Kind: llm.KindForStatus(status), Status: status, Err: err,
		RetryAfter: retryAfter(at.rec.header, cfg.Now())}
	switch {
	case e.Kind == llm.ErrAuth && cfg.APIKey == "":
		e.Message = fmt.Sprintf("the server at %s requires an API key: set %s and try again (server said: %s)", cfg.BaseURL, cfg.KeyEnv, serverMsg)
	case e.Kind == llm.ErrAuth:
		e.Message = fmt.Sprintf("the server at %s rejected the API key from %s: check that the key is valid and may use model %q (server said: %s)", cfg.BaseURL, cfg.KeyEnv, at.model, serverMsg)
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

// bodyMessage is the readable part of an error body that was not the
// usual {"error": {...}} shape.
func bodyMessage(e *goopenai.RequestError) string {
	if e.Err != nil {
		var apiErr *goopenai.APIError
		if errors.As(e.Err, &apiErr) {
			return apiErr.Message
		}
	}
	msg := strings.TrimSpace(string(e.Body))
	if msg == "" {
		return e.HTTPStatus
	}
	const limit = 500
	if len(msg) > limit {
		msg = msg[:limit] + "…"
	}
	return msg
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

// rootCause strips url.Error's "Post \"…\":" prefix, which repeats the URL
// the message already names.
func rootCause(err error) error {
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return urlErr.Err
	}
	return err
}
