package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// apiError is the body of every error answer: a stable code for programs
// and a sentence for people.
type apiError struct {
	Error   string `json:"error"`
	Message string `json:"message"`
	// Answer is set on an "already_answered" error: the answer that won.
	Answer string `json:"answer,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, apiError{Error: code, Message: msg})
}

// readJSON decodes one JSON object from the request body into v, refusing
// unknown fields and trailing data, so a misspelt field is an error and
// not a silently ignored setting.
func readJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			return fmt.Errorf("the request body is over %d bytes", tooBig.Limit)
		case errors.Is(err, io.EOF):
			return errors.New("the request needs a JSON body")
		}
		return fmt.Errorf("the request body is not the JSON expected: %v", err)
	}
	if dec.More() {
		return errors.New("the request body holds more than one JSON value")
	}
	return nil
}

// quote shows a client-sent value in a message, clipped and quoted.
func quote(s string) string {
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return strconv.Quote(s)
}

// badRequest answers 400 with err's text.
func badRequest(w http.ResponseWriter, err error) {
	fail(w, http.StatusBadRequest, "bad_request", strings.TrimSpace(err.Error()))
}
