package session

import (
	"encoding/binary"
	"errors"
	"math"
)

// Badger key layout (see doc.go for the picture):
//
//	h/<id>                          header JSON
//	m/<id>                          meta: event count, updatedAt (2×8 bytes BE)
//	e/<id>/<seq>                    one event; seq is 8 bytes big-endian
//	r/<^updatedAt><id>              recency index, newest first
//	w/<cwd>\x00<^updatedAt><id>     workspace index, newest first
//
// ^updatedAt is MaxUint64-updatedAt, big-endian, so a forward scan yields
// the most recently updated session first.
const (
	prefixHeader = "h/"
	prefixMeta   = "m/"
	prefixEvent  = "e/"
	prefixRecent = "r/"
	prefixWork   = "w/"
)

func headerKey(id string) []byte { return []byte(prefixHeader + id) }
func metaKey(id string) []byte   { return []byte(prefixMeta + id) }

// eventPrefix is the prefix of all event keys of one session.
func eventPrefix(id string) []byte { return []byte(prefixEvent + id + "/") }

func eventKey(id string, seq int64) []byte {
	p := eventPrefix(id)
	return binary.BigEndian.AppendUint64(p, uint64(seq))
}

func recentKey(updatedAt int64, id string) []byte {
	k := binary.BigEndian.AppendUint64([]byte(prefixRecent), invert(updatedAt))
	return append(k, id...)
}

func workPrefix(cwd string) []byte { return []byte(prefixWork + cwd + "\x00") }

func workKey(cwd string, updatedAt int64, id string) []byte {
	k := binary.BigEndian.AppendUint64(workPrefix(cwd), invert(updatedAt))
	return append(k, id...)
}

// indexID extracts the session id from an index key given its prefix.
func indexID(key []byte, prefixLen int) string { return string(key[prefixLen+8:]) }

func invert(t int64) uint64 { return math.MaxUint64 - uint64(t) }

// meta is the per-session bookkeeping kept beside the header.
type meta struct {
	count     int64
	updatedAt int64
}

func (m meta) encode() []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(m.count))
	return binary.BigEndian.AppendUint64(b, uint64(m.updatedAt))
}

func decodeMeta(b []byte) (meta, error) {
	if len(b) != 16 {
		return meta{}, errors.New("corrupt session meta record")
	}
	return meta{count: int64(binary.BigEndian.Uint64(b)), updatedAt: int64(binary.BigEndian.Uint64(b[8:]))}, nil
}

// encodeEvent packs an event value: time (8 bytes BE), type length
// (uvarint), type, data. Seq lives in the key.
func encodeEvent(e Event) []byte {
	b := make([]byte, 0, 8+2+len(e.Type)+len(e.Data))
	b = binary.BigEndian.AppendUint64(b, uint64(e.Time))
	b = binary.AppendUvarint(b, uint64(len(e.Type)))
	b = append(b, e.Type...)
	return append(b, e.Data...)
}

// decodeEvent unpacks a value written by encodeEvent. A value that cannot
// be unpacked yields an event with an empty Type, which load validation
// treats as a torn record.
func decodeEvent(seq int64, v []byte) Event {
	if len(v) < 9 {
		return Event{Seq: seq}
	}
	t := int64(binary.BigEndian.Uint64(v))
	n, w := binary.Uvarint(v[8:])
	if w <= 0 || w != len(binary.AppendUvarint(nil, n)) || uint64(len(v)-8-w) < n {
		return Event{Seq: seq}
	}
	off := 8 + w
	return Event{Seq: seq, Time: t, Type: string(v[off : off+int(n)]), Data: v[off+int(n):]}
}
