package goja

import (
	"hash/maphash"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/dop251/goja/unistring"
)

// appendMin is the length (in UTF-16 code units) from which the result of a
// concatenation is an appendString. Copying a shorter string costs little,
// and leaving it plain spares the buffer header and any spare capacity.
const appendMin = 256

// appendBuf is the buffer shared by the appendStrings of one chain of
// concatenations: each of them is a prefix of it. Bytes (or code units) below
// the current length are never written again, so a string holding a prefix can
// read it without the lock; the lock guards growing the buffer, which only the
// string ending exactly where the buffer does may do.
type appendBuf struct {
	mu sync.Mutex
	b  []byte   // the contents while they are ASCII
	w  []uint16 // the contents once they are not: a BOM, then UTF-16 (b is then nil)
}

// appendString is a string built by concatenation, so that `s += x` in a loop
// costs the length of x instead of the length of s: when s ends where its
// buffer does, x is appended to the buffer in place (amortised by the slice's
// growth) and the result is a longer view of the same buffer. Any other
// concatenation onto s (a second `s + y`, once s + x took the tail) copies, as
// plain strings do. Reading one is reading a plain asciiString or
// unicodeString view of its buffer, so "flattening" costs nothing and no
// operation other than concatenation sees the difference.
type appendString struct {
	buf *appendBuf
	a   asciiString   // the contents when buf.w is nil: a view of buf.b
	u   unicodeString // otherwise: a view of buf.w, BOM included, capacity cut at its length
}

// flat is the string as a plain asciiString or unicodeString. It shares
// memory with the buffer and costs nothing.
func (s *appendString) flat() String {
	if s.u != nil {
		return s.u
	}
	return s.a
}

// asciiView is the first n bytes of b as an asciiString. The bytes are never
// modified afterwards (see appendBuf), which is what unsafe.String requires.
func asciiView(b []byte, n int) asciiString {
	return asciiString(unsafe.String(unsafe.SliceData(b), n))
}

// stringShape is the length of s and whether it is ASCII.
func stringShape(s String) (length int, ascii bool) {
	a, u := devirtualizeString(s)
	if u != nil {
		return u.Length(), false
	}
	return len(a), true
}

// concatTwo is left + right, as the + operator and String.prototype.concat with
// one argument produce it.
func concatTwo(left, right String) String {
	if l, ok := left.(asciiString); ok { // the common case: short ASCII strings
		if r, ok := right.(asciiString); ok && len(l)+len(r) < appendMin {
			return l + r
		}
	}
	pair := [2]String{left, right}
	return concatAll(pair[:])
}

// concatAll is the concatenation of ss (at least one string), as the +
// operator, template literals and String.prototype.concat produce it. When
// ss[0] is an appendString at the end of its buffer, the rest is appended in
// place; otherwise a result of appendMin code units or more is a new
// appendString (with no spare capacity: only appending grows it) and a shorter
// one a plain string.
func concatAll(ss []String) String {
	n, ascii := 0, true
	for _, s := range ss {
		l, a := stringShape(s)
		n += l
		ascii = ascii && a
	}
	if head, ok := ss[0].(*appendString); ok {
		if n == head.Length() {
			return head
		}
		if r := head.appendInPlace(ss[1:], n, ascii); r != nil {
			return r
		}
	}
	if n < appendMin {
		return concatPlain(ss, n, ascii)
	}
	buf := &appendBuf{}
	if ascii {
		buf.b = writeASCII(make([]byte, 0, n), ss)
		return &appendString{buf: buf, a: asciiView(buf.b, n)}
	}
	buf.w = writeUTF16(append(make([]uint16, 0, n+1), unistring.BOM), ss)
	return &appendString{buf: buf, u: buf.w[: n+1 : n+1]}
}

// appendInPlace appends rest to s's buffer when s ends where the buffer does
// and the buffer can hold the result (an ASCII buffer takes only ASCII); n is
// the length of the result and ascii whether it is ASCII. It returns nil when
// the result must be built elsewhere.
func (s *appendString) appendInPlace(rest []String, n int, ascii bool) *appendString {
	buf := s.buf
	buf.mu.Lock()
	defer buf.mu.Unlock()
	if buf.w == nil {
		if !ascii || len(buf.b) != len(s.a) {
			return nil
		}
		buf.b = writeASCII(slices.Grow(buf.b, n-len(buf.b)), rest)
		return &appendString{buf: buf, a: asciiView(buf.b, n)}
	}
	if len(buf.w) != len(s.u) {
		return nil
	}
	buf.w = writeUTF16(slices.Grow(buf.w, n+1-len(buf.w)), rest)
	return &appendString{buf: buf, u: buf.w[: n+1 : n+1]}
}

// concatPlain builds a short concatenation as a plain string.
func concatPlain(ss []String, n int, ascii bool) String {
	if ascii {
		var sb strings.Builder
		sb.Grow(n)
		for _, s := range ss {
			a, _ := devirtualizeString(s)
			sb.WriteString(string(a))
		}
		return asciiString(sb.String())
	}
	b := make([]uint16, 1, n+1)
	b[0] = unistring.BOM
	return unicodeString(writeUTF16(b, ss))
}

// writeASCII appends ss, all ASCII, to b.
func writeASCII(b []byte, ss []String) []byte {
	for _, s := range ss {
		a, _ := devirtualizeString(s)
		b = append(b, a...)
	}
	return b
}

// writeUTF16 appends ss to b as UTF-16 code units.
func writeUTF16(b []uint16, ss []String) []uint16 {
	for _, s := range ss {
		a, u := devirtualizeString(s)
		if u != nil {
			b = append(b, u[1:]...)
			continue
		}
		for i := 0; i < len(a); i++ {
			b = append(b, uint16(a[i]))
		}
	}
	return b
}

func (s *appendString) ToInteger() int64         { return s.flat().ToInteger() }
func (s *appendString) toString() String         { return s }
func (s *appendString) string() unistring.String { return s.flat().string() }
func (s *appendString) ToString() Value          { return s }
func (s *appendString) String() string           { return s.flat().String() }
func (s *appendString) ToFloat() float64         { return s.flat().ToFloat() }
func (s *appendString) ToNumber() Value          { return s.flat().ToNumber() }
func (s *appendString) ToBoolean() bool          { return s.Length() > 0 }
func (s *appendString) ToObject(r *Runtime) *Object {
	return r._newString(s.flat(), r.getStringPrototype())
}
func (s *appendString) SameAs(other Value) bool            { return s.flat().SameAs(other) }
func (s *appendString) Equals(other Value) bool            { return s.flat().Equals(other) }
func (s *appendString) StrictEquals(other Value) bool      { return s.flat().StrictEquals(other) }
func (s *appendString) Export() interface{}                { return s.flat().Export() }
func (s *appendString) ExportType() reflect.Type           { return reflectTypeString }
func (s *appendString) baseObject(r *Runtime) *Object      { return s.flat().baseObject(r) }
func (s *appendString) hash(hasher *maphash.Hash) uint64   { return s.flat().hash(hasher) }
func (s *appendString) CharAt(idx int) uint16              { return s.flat().CharAt(idx) }
func (s *appendString) Concat(other String) String         { return concatTwo(s, other) }
func (s *appendString) Substring(start, end int) String    { return s.flat().Substring(start, end) }
func (s *appendString) CompareTo(other String) int         { return s.flat().CompareTo(other) }
func (s *appendString) Reader() io.RuneReader              { return s.flat().Reader() }
func (s *appendString) utf16Reader() utf16Reader           { return s.flat().utf16Reader() }
func (s *appendString) utf16RuneReader() io.RuneReader     { return s.flat().utf16RuneReader() }
func (s *appendString) utf16Runes() []rune                 { return s.flat().utf16Runes() }
func (s *appendString) index(substr String, start int) int { return s.flat().index(substr, start) }
func (s *appendString) lastIndex(substr String, pos int) int {
	return s.flat().lastIndex(substr, pos)
}
func (s *appendString) toLower() String       { return s.flat().toLower() }
func (s *appendString) toUpper() String       { return s.flat().toUpper() }
func (s *appendString) toTrimmedUTF8() string { return s.flat().toTrimmedUTF8() }

func (s *appendString) Length() int {
	if s.u != nil {
		return s.u.Length()
	}
	return len(s.a)
}
