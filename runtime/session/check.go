package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Truncater is implemented by stores that can drop a torn tail. Open uses
// it to remove records that Load reported as undecodable, so that the next
// append continues the sequence. It is never used on valid events.
type Truncater interface {
	// Truncate keeps the first n events of session id and removes the rest.
	Truncate(ctx context.Context, id string, n int64) error
}

// CheckHeader rejects headers a store cannot key. Every Store calls it
// in Create, so all stores refuse the same ids.
func CheckHeader(h Header) error {
	if h.ID == "" {
		return errors.New("create session: the header has no id")
	}
	if strings.ContainsAny(h.ID, "/\x00") {
		return fmt.Errorf("create session %q: an id may not contain '/' or NUL", h.ID)
	}
	return nil
}

// CheckBatch verifies that events continue a session holding next events
// and are contiguous among themselves (ErrSeqGap otherwise). Every Store
// calls it in Append.
func CheckBatch(id string, next int64, events []Event) error {
	for i, e := range events {
		if e.Seq != next+int64(i) {
			return fmt.Errorf("append to session %s: event seq %d, expected %d: %w", id, e.Seq, next+int64(i), ErrSeqGap)
		}
		if e.Type == "" {
			return fmt.Errorf("append to session %s: event seq %d has no type", id, e.Seq)
		}
	}
	return nil
}
