package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	cases := []struct {
		name, s string
		max     int
		want    string
	}{
		{"a short string is kept whole", "abc", 3, "abc"},
		{"a long one is cut at max bytes", "abcdef", 3, "abc…"},
		{"a cut never splits a character", "aé", 2, "a…"},
		{"a four-byte character is kept whole or dropped whole", "x😀y", 4, "x…"},
		{"a cut right after a character keeps it", "é😀", 2, "é…"},
		{"a zero budget leaves the ellipsis", "abc", 0, "…"},
		{"a negative budget is a zero one", "abc", -5, "…"},
		{"an empty string stays empty", "", 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := String(c.s, c.max); got != c.want {
				t.Fatalf("String(%q, %d) = %q, want %q", c.s, c.max, got, c.want)
			}
		})
	}
}

func FuzzString(f *testing.F) {
	f.Add("héllo wörld", 3)
	f.Add("😀😀", 5)
	f.Fuzz(func(t *testing.T, s string, limit int) {
		got := String(s, limit)
		if len(s) <= limit {
			if got != s {
				t.Fatalf("%q changed", s)
			}
			return
		}
		body, ok := strings.CutSuffix(got, Ellipsis)
		if !ok || !strings.HasPrefix(s, body) || len(body) > max(limit, 0) {
			t.Fatalf("String(%q, %d) = %q", s, limit, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("String(%q, %d) = %q cuts a character", s, limit, got)
		}
	})
}
