package llm

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestRetryPolicyNext(t *testing.T) {
	noJitter := DefaultRetryPolicy()
	noJitter.Rand = func() float64 { return 0 }
	many := noJitter
	many.MaxRetries = 10
	fullJitter := DefaultRetryPolicy()
	fullJitter.Rand = func() float64 { return 0.5 }

	rate := &Error{Kind: ErrRateLimit}
	server := &Error{Kind: ErrServer, Status: 503}
	tests := []struct {
		name    string
		policy  RetryPolicy
		attempt int
		err     error
		want    time.Duration
		retry   bool
	}{
		{"the first retry waits the base delay", noJitter, 1, server, 500 * time.Millisecond, true},
		{"the delay doubles per attempt", noJitter, 3, server, 2 * time.Second, true},
		{"the last default retry waits 8 s", noJitter, 5, server, 8 * time.Second, true},
		{"the delay is capped at Max", many, 7, server, 10 * time.Second, true},
		{"jitter shaves a fraction off the delay", fullJitter, 2, server, 900 * time.Millisecond, true},
		{"a sixth retry is refused", noJitter, 6, server, 0, false},
		{"timeouts are retried", noJitter, 1, &Error{Kind: ErrTimeout}, 500 * time.Millisecond, true},
		{"transport failures are retried", noJitter, 1, &Error{Kind: ErrTransport}, 500 * time.Millisecond, true},
		{"empty responses are retried", noJitter, 1, &Error{Kind: ErrEmpty}, 500 * time.Millisecond, true},
		{"rate limits are retried", noJitter, 2, rate, time.Second, true},
		{"a longer Retry-After wins", noJitter, 1, &Error{Kind: ErrRateLimit, RetryAfter: 7 * time.Second}, 7 * time.Second, true},
		{"a shorter Retry-After does not shorten the backoff", noJitter, 4, &Error{Kind: ErrRateLimit, RetryAfter: time.Second}, 4 * time.Second, true},
		{"a huge Retry-After is capped", noJitter, 1, &Error{Kind: ErrRateLimit, RetryAfter: time.Hour}, time.Minute, true},
		{"bad requests are not retried", noJitter, 1, &Error{Kind: ErrBadRequest, Status: 400}, 0, false},
		{"auth failures are not retried", noJitter, 1, &Error{Kind: ErrAuth, Status: 401}, 0, false},
		{"an empty balance is not retried", noJitter, 1, &Error{Kind: ErrPayment, Status: 402}, 0, false},
		{"a context overflow is not retried as is", noJitter, 1, &Error{Kind: ErrContextOverflow, Status: 400}, 0, false},
		{"a content filter stop is not retried", noJitter, 1, &Error{Kind: ErrContentFilter}, 0, false},
		{"script exhaustion is not retried", noJitter, 1, &Error{Kind: ErrScript}, 0, false},
		{"plain errors are not retried", noJitter, 1, errors.New("boom"), 0, false},
		{"cancellation is not retried", noJitter, 1, context.Canceled, 0, false},
		{"a nil error is not retried", noJitter, 1, nil, 0, false},
		{"a zero policy never retries", RetryPolicy{}, 1, server, 0, false},
		{"a wrapped *Error is recognised", noJitter, 1, wrap(server), 500 * time.Millisecond, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, retry := tc.policy.Next(tc.attempt, tc.err)
			if got != tc.want || retry != tc.retry {
				t.Fatalf("Next(%d, %v) = %v, %v; want %v, %v", tc.attempt, tc.err, got, retry, tc.want, tc.retry)
			}
		})
	}
}

func TestRetryPolicyDelaysStayWithinBounds(t *testing.T) {
	p := DefaultRetryPolicy()
	for _, r := range []float64{0, 0.25, 0.999} {
		p.Rand = func() float64 { return r }
		for attempt := 1; attempt <= p.MaxRetries; attempt++ {
			d, ok := p.Next(attempt, &Error{Kind: ErrServer})
			if !ok || d <= 0 || d > p.Max {
				t.Fatalf("rand %v attempt %d: delay %v ok %v outside (0, %v]", r, attempt, d, ok, p.Max)
			}
		}
	}
}

func TestKindForStatus(t *testing.T) {
	tests := []struct {
		status int
		want   ErrorKind
	}{
		{429, ErrRateLimit}, {408, ErrTimeout}, {401, ErrAuth}, {402, ErrPayment}, {403, ErrAuth},
		{400, ErrBadRequest}, {404, ErrBadRequest}, {422, ErrBadRequest},
		{500, ErrServer}, {502, ErrServer}, {503, ErrServer}, {200, ErrOther}, {0, ErrOther},
	}
	for _, tc := range tests {
		if got := KindForStatus(tc.status); got != tc.want {
			t.Errorf("KindForStatus(%d) = %s, want %s", tc.status, got, tc.want)
		}
	}
}

func wrap(err error) error { return errors.Join(errors.New("attempt 1"), err) }
