package interp

import (
	"math/rand"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestAppendFieldsSplitsAsStringsFields holds the one-pass splitter to
// strings.Fields on random records of spaces, ASCII controls, letters and
// Unicode spaces, into empty and reused slices.
func TestAppendFieldsSplitsAsStringsFields(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pieces := []string{" ", "\t", "\n", "\v", "\f", "\r", "a", "bc", "é", "\u00a0", "\u0085", "\u3000", "\xff", "x", "abcdefghij", "0123456789abcdefg", "!~}|{", "\x01", "\x7f"}
	var reused []string
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for j := rng.Intn(14); j > 0; j-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		s := b.String()
		want := strings.Fields(s)
		got := appendFields(nil, s)
		reused = appendFields(reused[:0], s)
		if len(want) == 0 {
			want = nil
		}
		if len(got) == 0 {
			got = nil
		}
		if !reflect.DeepEqual(got, want) || len(reused) != len(want) || (len(want) > 0 && !reflect.DeepEqual(reused, want)) {
			t.Fatalf("%q: got %q and %q, want %q", s, got, reused, want)
		}
	}
}

// TestParseDigitsAgreesWithParseFloat: the digits short cut gives what
// the general path gives, and leaves everything else to it.
func TestParseDigitsAgreesWithParseFloat(t *testing.T) {
	for _, s := range []string{"0", "7", "500", "0500", "000", "123456789012345", "1234567890123456", "", " 5", "5 ", "-5", "+5", "1e3", "0x1A", "1_000", "5a", "١"} {
		n, ok := parseDigits(s)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || f != n {
			t.Errorf("%q: short cut %v, ParseFloat %v (%v)", s, n, f, err)
		}
	}
	for _, s := range []string{"", " 5", "-5", "1e3", "0x1A", "1234567890123456", "5a"} {
		if _, ok := parseDigits(s); ok {
			t.Errorf("%q taken by the short cut", s)
		}
	}
}
