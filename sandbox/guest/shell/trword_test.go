package shell

import (
	"bytes"
	"testing"
)

// TestWordTranslationAgreesWithTheTable translates every byte value, at
// every alignment and length around the 8-byte word, by the word-wise
// code and by a plain lookup in the table, for shifts of a range and for
// tables that are not one.
func TestWordTranslationAgreesWithTheTable(t *testing.T) {
	var all []byte
	for i := range 600 {
		all = append(all, byte(i*7))
	}
	sets := []struct{ name, set1, set2 string }{
		{"lower to upper is a shift", "a-z", "A-Z"},
		{"upper to lower is a shift", "A-Z", "a-z"},
		{"one byte is a shift", "x", "y"},
		{"a range down to NUL is a shift", "\\001-\\005", "\\000-\\004"},
		{"the top of ASCII is a shift", "~", "\\177"},
		{"rot13 is not a shift", "a-zA-Z", "n-za-mN-ZA-M"},
		{"a range onto one byte is not a shift", "a-z", "_"},
	}
	for _, tt := range sets {
		t.Run(tt.name, func(t *testing.T) {
			table := newTrTable(trSet(tt.set1), trSet(tt.set2), false, false, false)
			for start := range 9 {
				for end := start; end <= len(all); end += 1 + end%3 {
					got := append([]byte(nil), all[start:end]...)
					table.translate(got, table.rangeShift())
					want := append([]byte(nil), all[start:end]...)
					for i, b := range want {
						want[i] = table.to[b]
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("all[%d:%d]: got %q, want %q", start, end, got, want)
					}
				}
			}
		})
	}
	if s := newTrTable(trSet("a-z"), trSet("A-Z"), false, false, false).rangeShift(); !s.ok || s.lo != 'a' || s.hi != 'z' || s.d != -32 {
		t.Errorf("a-z A-Z: got %+v, want a shift of a..z by -32", s)
	}
	if s := newTrTable(trSet("a-zA-Z"), trSet("n-za-mN-ZA-M"), false, false, false).rangeShift(); s.ok {
		t.Errorf("rot13: got the shift %+v", s)
	}
}
