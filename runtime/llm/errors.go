package llm

import (
	"errors"
	"fmt"
	"time"
)

// ErrorKind classifies a failed attempt so that retry policy and user
// messages can be decided without looking at provider-specific details.
type ErrorKind string

// Error kinds. RateLimit, Server, Timeout, Transport and Empty are
// retryable; the others are not.
const (
	ErrRateLimit  ErrorKind = "rate-limit"
	ErrServer     ErrorKind = "server"
	ErrTimeout    ErrorKind = "timeout"
	ErrTransport  ErrorKind = "transport"
	ErrEmpty      ErrorKind = "empty-response"
	ErrAuth       ErrorKind = "auth"
	ErrBadRequest ErrorKind = "bad-request"
	ErrScript     ErrorKind = "script"
	ErrOther      ErrorKind = "other"
	// ErrContextOverflow: the request does not fit the model's context
	// window. Sending it again fails the same way; the caller must make
	// it smaller first (compaction), so it is not retryable here.
	// Error.RequestTokens and Error.ContextWindow say by how much.
	ErrContextOverflow ErrorKind = "context-overflow"
	// ErrPayment: the account cannot pay for the request (HTTP 402,
	// DeepSeek's "Insufficient Balance").
	ErrPayment ErrorKind = "payment"
	// ErrContentFilter: the provider's content filter stopped the answer.
	ErrContentFilter ErrorKind = "content-filter"
	// ErrUnreachable: the server cannot be reached in a way waiting does
	// not mend — the connection is refused, the host name does not
	// resolve, TLS fails — so it is reported at once, not retried.
	ErrUnreachable ErrorKind = "unreachable"
)

// Error is a failed model attempt. Status is the HTTP status when there was
// one; RetryAfter is the server's Retry-After hint (0 when absent). Message
// is written for the user and says what to fix when the fix is theirs
// (a missing key, a wrong base URL).
type Error struct {
	Kind       ErrorKind
	Status     int
	RetryAfter time.Duration
	Message    string
	Err        error
	// RequestTokens and ContextWindow are set for ErrContextOverflow:
	// the size of the rejected request in tokens and the window it had
	// to fit, as the server reported them or, when it did not, as ptc
	// estimated them (0 when neither is known).
	RequestTokens int
	ContextWindow int
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("model request failed (%s, HTTP %d): %s", e.Kind, e.Status, e.Message)
	}
	return fmt.Sprintf("model request failed (%s): %s", e.Kind, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether another attempt of the same request may succeed.
func (e *Error) Retryable() bool {
	switch e.Kind {
	case ErrRateLimit, ErrServer, ErrTimeout, ErrTransport, ErrEmpty:
		return true
	}
	return false
}

// AsError returns err as a *Error, wrapping unknown errors as ErrOther.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Kind: ErrOther, Message: err.Error(), Err: err}
}
