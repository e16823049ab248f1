package shell

import (
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonReader reads a stream of JSON texts into gojq values in one pass
// over a buffer of the input, recording key orders as it goes. It
// replaced encoding/json's Decoder.Token, which allocates a token per
// value and re-scans each one (56 % of jq's time in the guest): strings
// without escapes are one slice and one copy, numbers are parsed where
// they lie.
type jsonReader struct {
	r      io.Reader
	buf    []byte
	pos    int
	err    error // the read error that ended the input (io.EOF at its end)
	orders *keyOrders
	keys   []string // the keys of the objects being read, innermost last
}

func newJSONReader(r io.Reader, orders *keyOrders) *jsonReader {
	return &jsonReader{r: r, buf: make([]byte, 0, 64<<10), orders: orders}
}

// maxJSONDepth bounds nesting as jq does (10000 there; a hostile input
// must not exhaust the guest's stack).
const maxJSONDepth = 10000

// next returns the next value, or io.EOF after the last.
func (j *jsonReader) next() (any, error) {
	if _, ok := j.skipSpace(); !ok {
		if j.err != io.EOF {
			return nil, j.err
		}
		return nil, io.EOF
	}
	return j.value(0)
}

// more reads more input, keeping buf[keep:] (moved to the front: the
// returned shift is how far), and reports false at the end of the input.
func (j *jsonReader) more(keep int) (shift int, ok bool) {
	if keep > 0 {
		n := copy(j.buf, j.buf[keep:])
		j.buf = j.buf[:n]
		j.pos -= keep
	}
	if len(j.buf) == cap(j.buf) {
		grown := make([]byte, len(j.buf), 2*cap(j.buf))
		copy(grown, j.buf)
		j.buf = grown
	}
	for j.err == nil {
		n, err := j.r.Read(j.buf[len(j.buf):cap(j.buf)])
		j.buf = j.buf[:len(j.buf)+n]
		j.err = err
		if n > 0 {
			return keep, true
		}
	}
	return keep, false
}

// skipSpace moves past white space to the next byte, false at the end.
func (j *jsonReader) skipSpace() (byte, bool) {
	for {
		for j.pos < len(j.buf) {
			switch c := j.buf[j.pos]; c {
			case ' ', '\t', '\n', '\r':
				j.pos++
			default:
				return c, true
			}
		}
		if _, ok := j.more(j.pos); !ok {
			return 0, false
		}
	}
}

// inside is skipSpace within a value, where the end is an error.
func (j *jsonReader) inside() (byte, error) {
	c, ok := j.skipSpace()
	if !ok {
		return 0, j.cutShort()
	}
	return c, nil
}

func (j *jsonReader) cutShort() error {
	if j.err != nil && j.err != io.EOF {
		return j.err
	}
	return io.ErrUnexpectedEOF
}

func badChar(c byte, context string) error {
	return fmt.Errorf("invalid character %s %s", strconv.QuoteRune(rune(c)), context)
}

// value reads the value that starts at j.pos (after white space).
func (j *jsonReader) value(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, errors.New("Exceeds depth limit for parsing")
	}
	switch c := j.buf[j.pos]; {
	case c == '{':
		return j.object(depth)
	case c == '[':
		return j.array(depth)
	case c == '"':
		return j.str()
	case c == 't':
		return true, j.literal("true")
	case c == 'f':
		return false, j.literal("false")
	case c == 'n':
		return nil, j.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return j.number()
	default:
		return nil, badChar(c, "looking for beginning of value")
	}
}

func (j *jsonReader) array(depth int) (any, error) {
	j.pos++
	arr := []any{}
	c, err := j.inside()
	if err != nil || c == ']' {
		j.pos++
		return arr, err
	}
	for {
		v, err := j.value(depth + 1)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		if c, err = j.inside(); err != nil {
			return nil, err
		}
		j.pos++
		switch c {
		case ']':
			return arr, nil
		case ',':
			if _, err = j.inside(); err != nil {
				return nil, err
			}
		default:
			return nil, badChar(c, "after array element")
		}
	}
}

func (j *jsonReader) object(depth int) (any, error) {
	j.pos++
	obj := map[string]any{}
	first := len(j.keys)
	defer func() { j.keys = j.keys[:first] }()
	c, err := j.inside()
	if err != nil || c == '}' {
		j.pos++
		return obj, err
	}
	for {
		if c != '"' {
			return nil, badChar(c, "looking for beginning of object key string")
		}
		k, err := j.str()
		if err != nil {
			return nil, err
		}
		key := k.(string)
		if c, err = j.inside(); err != nil {
			return nil, err
		}
		if c != ':' {
			return nil, badChar(c, "after object key")
		}
		j.pos++
		if _, err = j.inside(); err != nil {
			return nil, err
		}
		v, err := j.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if _, dup := obj[key]; !dup {
			j.keys = append(j.keys, key)
		}
		obj[key] = v
		if c, err = j.inside(); err != nil {
			return nil, err
		}
		j.pos++
		switch c {
		case '}':
			if j.orders != nil && len(j.keys)-first > 1 {
				j.orders.add(j.keys[first:])
			}
			return obj, nil
		case ',':
			if c, err = j.inside(); err != nil {
				return nil, err
			}
		default:
			return nil, badChar(c, "after object key:value pair")
		}
	}
}

// str reads the string whose opening quote is at j.pos.
func (j *jsonReader) str() (any, error) {
	start := j.pos + 1
	i, plain := start, true
	for {
		for i < len(j.buf) {
			c := j.buf[i]
			switch {
			case c == '"':
				raw := j.buf[start:i]
				j.pos = i + 1
				if plain && utf8.Valid(raw) {
					return string(raw), nil
				}
				return unquoteJSON(raw)
			case c == '\\':
				plain = false
				i += 2
				continue
			case c < 0x20:
				return nil, badChar(c, "in string literal")
			}
			i++
		}
		shift, ok := j.more(start)
		if !ok {
			return nil, j.cutShort()
		}
		start, i = start-shift, i-shift
	}
}

// unquoteJSON decodes a string's escapes; bytes that are not UTF-8
// become U+FFFD, as encoding/json does.
func unquoteJSON(raw []byte) (string, error) {
	var b strings.Builder
	b.Grow(len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			r, size := utf8.DecodeRune(raw[i:])
			b.WriteRune(r)
			i += size
			continue
		}
		if i+1 >= len(raw) {
			return "", errors.New("invalid escape at the end of a string")
		}
		i += 2
		switch e := raw[i-1]; e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := hex4b(raw[i:])
			if !ok {
				return "", errors.New("invalid character in \\u hexadecimal character escape")
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2, ok := rune(-1), false
				if i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					r2, ok = hex4b(raw[i+2:])
				}
				if d := utf16.DecodeRune(r, r2); ok && d != utf8.RuneError {
					r = d
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default:
			return "", badChar(e, "in string escape code")
		}
	}
	return b.String(), nil
}

func hex4b(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(n), err == nil
}

// literal reads true, false or null, which starts at j.pos.
func (j *jsonReader) literal(word string) error {
	for len(j.buf)-j.pos < len(word) {
		if _, ok := j.more(j.pos); !ok {
			break
		}
	}
	for k := range len(word) {
		if j.pos+k >= len(j.buf) {
			return j.cutShort()
		}
		if c := j.buf[j.pos+k]; c != word[k] {
			return badChar(c, "in literal "+word+" (expecting "+strconv.QuoteRune(rune(word[k]))+")")
		}
	}
	j.pos += len(word)
	return nil
}

// number reads the number that starts at j.pos.
func (j *jsonReader) number() (any, error) {
	start, i := j.pos, j.pos
	for {
		for i < len(j.buf) && strings.IndexByte("+-.eE0123456789", j.buf[i]) >= 0 {
			i++
		}
		if i < len(j.buf) {
			break
		}
		shift, ok := j.more(start)
		start, i = start-shift, i-shift
		if !ok {
			break
		}
	}
	j.pos = i
	if n, ok := smallInt(j.buf[start:i]); ok {
		return n, nil
	}
	s := string(j.buf[start:i])
	if !validJSONNumber(s) {
		return nil, fmt.Errorf("invalid number literal %q", s)
	}
	return jqNumber(s), nil
}

// validJSONNumber checks s against JSON's number grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validJSONNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// jqNumber converts a JSON number to the types gojq computes with.
func jqNumber(s string) any {
	if i, err := strconv.Atoi(s); err == nil {
		return i
	}
	if !strings.ContainsAny(s, ".eE") {
		if b, ok := new(big.Int).SetString(s, 10); ok {
			return b
		}
	}
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// smallInt parses an integer of at most 18 digits without a string made
// for it, false for anything else (which number leaves to strconv).
func smallInt(b []byte) (int, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 || len(b) > 1 && b[0] == '0' {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}
