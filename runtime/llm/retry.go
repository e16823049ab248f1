package llm

import (
	"context"
	"math/rand/v2"
	"time"
)

// RetryPolicy decides whether a failed attempt is tried again and how long
// to wait first. It is a plain value: the agent loop owns the attempts (so
// each one can be logged) and asks Next after every failure.
//
// Only retryable failures (see Error.Retryable: rate limit, 5xx, timeout,
// transport, empty response) are retried. The delay grows exponentially
// from Base and is capped at Max; Jitter shaves a random fraction off it so
// that many clients do not retry in lockstep. A server's Retry-After hint
// wins when it is longer than the computed delay, up to MaxRetryAfter.
type RetryPolicy struct {
	// MaxRetries is how many retries follow the first attempt (0: none).
	MaxRetries int
	// Base is the delay before the first retry; it doubles per retry.
	Base time.Duration
	// Max caps the exponential delay.
	Max time.Duration
	// Jitter in [0,1] is the largest fraction removed from a delay at
	// random: 0.2 turns 1 s into something in (0.8 s, 1 s].
	Jitter float64
	// MaxRetryAfter caps a server's Retry-After hint, so that one
	// misconfigured header cannot park a session for an hour. Zero means
	// no hint is honoured beyond Max.
	MaxRetryAfter time.Duration
	// Rand returns a number in [0,1); nil uses math/rand/v2. Tests inject
	// a constant to get exact delays.
	Rand func() float64
}

// DefaultRetryPolicy is the policy of DESIGN.md §4: 5 retries, backoff
// 0.5 s → 10 s with 20 % jitter, Retry-After honoured up to one minute.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{
		MaxRetries:    5,
		Base:          500 * time.Millisecond,
		Max:           10 * time.Second,
		Jitter:        0.2,
		MaxRetryAfter: time.Minute,
	}
}

// Next is asked after attempt number attempt (1 for the first attempt)
// failed with err. It reports whether to try again and how long to wait
// before doing so. Errors that are not *Error are treated as ErrOther and
// never retried.
func (p RetryPolicy) Next(attempt int, err error) (time.Duration, bool) {
	if err == nil || attempt < 1 || attempt > p.MaxRetries {
		return 0, false
	}
	e := AsError(err)
	if !e.Retryable() {
		return 0, false
	}
	d := p.backoff(attempt)
	if e.RetryAfter > d {
		hint := e.RetryAfter
		if hint > p.MaxRetryAfter {
			hint = max(p.MaxRetryAfter, d)
		}
		d = hint
	}
	return d, true
}

// backoff is Base·2^(attempt-1), capped at Max, minus the jitter share.
func (p RetryPolicy) backoff(attempt int) time.Duration {
	d := p.Base
	for i := 1; i < attempt && d < p.Max; i++ {
		d *= 2
	}
	if p.Max > 0 && d > p.Max {
		d = p.Max
	}
	j := min(max(p.Jitter, 0), 1)
	if j == 0 || d <= 0 {
		return d
	}
	r := p.Rand
	if r == nil {
		r = rand.Float64
	}
	return d - time.Duration(float64(d)*j*r())
}

// Sleep waits d or until ctx ends, whichever comes first, and returns
// ctx's error in the second case. Retry delays and scripted pauses use it
// so that Ctrl-C never waits out a backoff.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
