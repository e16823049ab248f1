package shell

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestOneKeySortMatchesGNU compares sort with one bytewise key, which
// decoratedOrder sorts, with GNU sort over inputs at its edges: NULs in
// keys and lines (sent to the comparator), equal keys with -s and -u,
// CRLF, no final newline, a line past 64 KiB, several files and stdin.
func TestOneKeySortMatchesGNU(t *testing.T) {
	inputs := map[string]string{
		"nul":   "b\x00a x 1\na x 2\nb\x00 y 3\nb y 4\na\x00 x 5\na x 0\n",
		"ties":  "3 k z\n1 k a\n2 j b\n0 k a\n5 j a\n4 kk a\n6  k a\n",
		"crlf":  "b a\r\na b\r\nc a\r\na a\r\n",
		"noeol": "b a\na b\nb a",
		"empty": "",
		"nums":  "  3 b\n-1.5 a\n3 a\n 3 c\nx\n0 z\n-0 y\n10 q\n2.50 w\n2.5 v\n1e3 u\n.5 t\n",
		"long":  "x " + strings.Repeat("q", 70<<10) + "\ny " + strings.Repeat("q", 70<<10) + "a\nz a\n",
	}
	bash, dir := gnuFixture(t, inputs)
	cases := map[string]string{
		"a key compared bytewise orders by key then line":       "sort -k2,2 @",
		"a key with -s keeps equal keys in input order":         "sort -s -k2,2 @",
		"a key with -u keeps the first of equal keys":           "sort -u -k2,2 @",
		"a key to the end of the line":                          "sort -k2 @",
		"a key with -b skips blanks":                            "sort -b -k2,2 @",
		"a key of characters":                                   "sort -k2.2,2.3 @",
		"a key after a separator":                               "sort -t' ' -k3,3 @",
		"a key past the last field is empty":                    "sort -k9,9 @",
		"a key from stdin":                                      "cat @ | sort -k2,2",
		"a key over two files":                                  "sort -k2,2 @ ties",
		"a key with -u over two files":                          "sort -u -k2,2 @ ties",
		"a number orders by number then line":                   "sort -n @",
		"a reversed number reverses the lines of equal numbers": "sort -rn @",
		"a numeric key":                                         "sort -k1,1n @",
		"a reversed numeric key with -s":                        "sort -s -k1,1nr @",
		"a number with -u keeps the first of equal numbers":     "sort -u -n @",
		"a numeric key under a global -r":                       "sort -r -k1,1n @",
		"counts from uniq -c":                                   "sort -k2 @ | uniq -c | sort -rn",
		"a key when -r reverses the whole order (comparator)":   "sort -r -k2,2 @",
	}
	for name, command := range cases {
		for input := range inputs {
			script := strings.ReplaceAll(command, "@", input)
			t.Run(name+" ("+script+")", func(t *testing.T) { compareWithBash(t, bash, dir, script) })
		}
	}
}

// TestCompareLinesOrdersAsBytes: comparing the two prefix words first
// orders lines exactly as a bytewise comparison does, NUL bytes, prefixes
// of each other and lines shorter than a word included.
func TestCompareLinesOrdersAsBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 2))
	alphabet := "\x00 1a\xff"
	for range 50000 {
		var l [2]string
		for j := range l {
			b := make([]byte, rng.IntN(20))
			for k := range b {
				b[k] = alphabet[rng.IntN(len(alphabet))]
			}
			l[j] = string(b)
		}
		a := numRec{line: l[0], pre0: linePrefix(l[0], 0), pre1: linePrefix(l[0], 8)}
		b := numRec{line: l[1], pre0: linePrefix(l[1], 0), pre1: linePrefix(l[1], 8)}
		if got, want := compareLines(&a, &b), strings.Compare(l[0], l[1]); got != want {
			t.Fatalf("%q vs %q: %d, bytewise %d", l[0], l[1], got, want)
		}
	}
}
