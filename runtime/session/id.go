package session

import (
	"encoding/hex"
	"io"
	"time"
)

// NewID returns a session id like 20261129-120301-a1b2c3: the UTC time to
// the second, then three random bytes. Ids sort by creation time, which is
// also how List breaks ties. If rand fails the random part is zero; the
// caller's Create then reports a clash as ErrExists.
func NewID(now time.Time, rand io.Reader) string {
	var b [3]byte
	if rand != nil {
		_, _ = io.ReadFull(rand, b[:])
	}
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}
