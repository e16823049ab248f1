package pieces

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name string
		in   string
		n    int
		want []string
	}{
		{"empty text gives no pieces", "", 3, nil},
		{"short text stays whole when it cannot be cut", "a", 3, []string{"a"}},
		{"text is cut into n pieces", "abcdef", 3, []string{"ab", "cd", "ef"}},
		{"a remainder makes the last piece shorter", "abcde", 2, []string{"abc", "de"}},
		{"multi-byte runes are never cut", "héé", 3, []string{"hé", "é"}},
		{"n below one is treated as one", "abc", 0, []string{"abc"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Split(tc.in, tc.n)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
				t.Fatalf("Split(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
			}
		})
	}
}

func FuzzSplit(f *testing.F) {
	f.Add("hello wörld", 3)
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n%8 + 1
		if n < 1 {
			n = -n + 1
		}
		got := Split(s, n)
		if strings.Join(got, "") != s {
			t.Fatalf("pieces %q do not rejoin to %q", got, s)
		}
		for _, p := range got {
			if p == "" || (utf8.ValidString(s) && !utf8.ValidString(p)) {
				t.Fatalf("bad piece %q in %q", p, got)
			}
		}
	})
}
