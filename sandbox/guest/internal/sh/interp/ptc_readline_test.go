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

// TestWhiteFieldValuesAgreesWithFieldValues: for an IFS of whitespace
// only, the short cut gives each name what the general split gives.
func TestWhiteFieldValuesAgreesWithFieldValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 4))
	alphabet := []byte(" \t\nab:")
	for _, ifs := range []string{" \t\n", "", " ", "\t", "\n", " \n"} {
		set, _ := asciiIFS(ifs)
		if !set.onlyWhite() {
			t.Fatalf("IFS %q not whitespace only", ifs)
		}
		for range 3000 {
			line := make([]byte, rng.IntN(12))
			for i := range line {
				line[i] = alphabet[rng.IntN(len(alphabet))]
			}
			for n := 1; n <= 4; n++ {
				got, want := whiteFieldValues(n, line, &set), fieldValues(n, line, &set)
				if !slices.Equal(got, want) {
					t.Fatalf("IFS %q, line %q, %d names: got %q, want %q", ifs, line, n, got, want)
				}
			}
		}
	}
	if set, _ := asciiIFS(" :"); set.onlyWhite() {
		t.Error("an IFS with a colon taken as whitespace only")
	}
}
