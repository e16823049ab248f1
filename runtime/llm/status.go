package llm

import "net/http"

// KindForStatus classifies an HTTP status of a failed model request, so
// that every adapter (and the scripted provider) agrees on which statuses
// are worth a retry: 429 is a rate limit, 408 a timeout, 5xx a server
// failure, 401/403 an authentication problem the user must fix, 402 an
// account that cannot pay, and any other 4xx a bad request that will fail
// the same way again.
func KindForStatus(status int) ErrorKind {
	switch {
	case status == http.StatusTooManyRequests:
		return ErrRateLimit
	case status == http.StatusRequestTimeout:
		return ErrTimeout
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return ErrAuth
	case status == http.StatusPaymentRequired:
		return ErrPayment
	case status >= 500 && status <= 599:
		return ErrServer
	case status >= 400 && status <= 499:
		return ErrBadRequest
	}
	return ErrOther
}
