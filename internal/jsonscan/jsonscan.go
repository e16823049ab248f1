// Package jsonscan scans the lexical pieces of JSON text — whitespace,
// numbers and string literals — for the hand-written readers that skip
// encoding/json on hot paths (the engine's JSON.parse in ptc, the
// projection of surface events in runtime/session). Each reader builds its
// own values; this package only finds where a token ends and decodes a
// string literal, the same way for both, so a fix to escape or UTF-8
// handling lands in one place.
//
// The functions work on a string or a byte slice (Text) without copying
// the text: a reader keeps its input in whichever form it gets it. They
// report ok == false for anything that is not valid JSON or that a reader
// must leave to its fallback decoder (text that is not UTF-8); they never
// guess.
package jsonscan

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Text is the input a scanner reads: a string (the engine's JavaScript
// text) or bytes (a stored event).
type Text interface{ ~string | ~[]byte }

// Space returns the index of the first byte at or after i that is not
// JSON whitespace (space, tab, newline, carriage return), or len(s).
func Space[T Text](s T, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// Number returns the index just past the number literal that starts at
// s[i] (a minus sign or a digit), or ok == false when no JSON number
// starts there. It reads the longest number the grammar allows: after a
// leading 0 it stops, so "01" ends after the 0 and the reader's grammar
// rejects the digit that follows.
func Number[T Text](s T, i int) (end int, ok bool) {
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if i = digits(s, i); i < 0 {
		return 0, false
	}
	if i < len(s) && s[i] == '.' {
		if i = digits(s, i+1); i < 0 {
			return 0, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i = digits(s, i); i < 0 {
			return 0, false
		}
	}
	return i, true
}

// digits skips one or more decimal digits from i; -1 when there is none.
func digits[T Text](s T, i int) int {
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}

// String decodes the string literal whose opening quote is s[i] and
// returns its value and the index just past the closing quote. A literal
// without escapes is returned without copying when s is a string. buf is
// scratch space for literals with escapes, kept by the caller between
// calls (nil is fine).
//
// It decodes as encoding/json does — a surrogate pair escape becomes its
// character, a lone surrogate escape U+FFFD — and reports ok == false for
// a control character, an unknown escape, a short \u escape, a missing
// closing quote, and bytes that are not UTF-8 (encoding/json would
// replace those; the caller's fallback decides).
func String[T Text](s T, i int, buf *[]byte) (v string, end int, ok bool) {
	start := i + 1
	if i, ok = run(s, start); !ok {
		return "", 0, false
	}
	if i < len(s) && s[i] == '"' {
		return string(s[start:i]), i + 1, true
	}
	return escaped(s, start, i, buf)
}

// run skips the characters of a literal from i up to its next quote or
// backslash (or the end of s); ok == false at a control character or
// bytes that are not UTF-8.
func run[T Text](s T, i int) (end int, ok bool) {
	for i < len(s) {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			return i, true
		case c < 0x20:
			return 0, false
		case c < utf8.RuneSelf:
			i++
		default:
			n := runeLen(s, i)
			if n == 0 {
				return 0, false
			}
			i += n
		}
	}
	return i, true
}

// escaped continues a literal from its first backslash at i; start is
// where its value begins. Runs between escapes are copied whole, so the
// buffer grows a few times per literal, not once per byte.
func escaped[T Text](s T, start, i int, buf *[]byte) (string, int, bool) {
	b := append((*buf)[:0], s[start:i]...)
	defer func() { *buf = b[:0] }()
	for {
		if i >= len(s) || i+1 >= len(s) && s[i] == '\\' {
			return "", 0, false // no closing quote, or a backslash at the end
		}
		if s[i] == '"' {
			return string(b), i + 1, true
		}
		e := s[i+1]
		i += 2
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(s, i)
			if !ok {
				return "", 0, false
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r, i, ok = surrogate(s, r, i)
				if !ok {
					return "", 0, false
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			return "", 0, false
		}
		next, ok := run(s, i)
		if !ok {
			return "", 0, false
		}
		b = append(b, s[i:next]...)
		i = next
	}
}

// surrogate completes the surrogate escape r whose four hex digits end at
// i: with the \u escape that follows when the two make a pair, else
// U+FFFD and the next escape is read on its own (as encoding/json does).
func surrogate[T Text](s T, r rune, i int) (rune, int, bool) {
	if i+1 >= len(s) || s[i] != '\\' || s[i+1] != 'u' {
		return utf8.RuneError, i, true
	}
	r2, ok := hex4(s, i+2)
	if !ok {
		return 0, 0, false
	}
	if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
		return d, i + 6, true
	}
	return utf8.RuneError, i, true
}

// hex4 reads the four hex digits of a \u escape at i.
func hex4[T Text](s T, i int) (rune, bool) {
	if len(s)-i < 4 {
		return 0, false
	}
	var v rune
	for j := i; j < i+4; j++ {
		c := s[j]
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// runeLen is the length of the valid UTF-8 sequence at s[i], 0 when the
// bytes there are not one.
func runeLen[T Text](s T, i int) int {
	var q [utf8.UTFMax]byte
	n := copy(q[:], s[i:])
	r, size := utf8.DecodeRune(q[:n])
	if r == utf8.RuneError && size <= 1 {
		return 0
	}
	return size
}
