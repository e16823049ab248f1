// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md).

package interp

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestReadFieldsBytesSplitsAsTheCharacterPath: for lines with no escaped
// character and an ASCII IFS, the byte splitter of read's fast path gives
// the fields and field starts the general splitter gives.
func TestReadFieldsBytesSplitsAsTheCharacterPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 1))
	alphabet := []byte(" \t\n:,ab\\x")
	for _, ifs := range []string{" \t\n", "", ":", " :", ":,", "\t", " ", ",\n", "a"} {
		set, ok := asciiIFS(ifs)
		if !ok {
			t.Fatalf("IFS %q not taken as ASCII", ifs)
		}
		for range 3000 {
			line := make([]byte, rng.IntN(12))
			for i := range line {
				line[i] = alphabet[rng.IntN(len(alphabet))]
			}
			chars := make([]rchar, len(line))
			for i, b := range line {
				chars[i] = rchar{r: rune(b)}
			}
			wantF, wantS := readFields(chars, ifs)
			gotF, gotS := readFieldsBytes(line, &set)
			if !slices.Equal(gotF, wantF) || !slices.Equal(gotS, wantS) {
				t.Fatalf("IFS %q, line %q: got %q at %v, want %q at %v", ifs, line, gotF, gotS, wantF, wantS)
			}
		}
	}
	if _, ok := asciiIFS("é"); ok {
		t.Error("an IFS outside ASCII was taken by the byte path")
	}
}
