package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	cases := []struct {
		name, in, want string
		ok             bool
	}{
		{"a plain literal is its bytes", `"héllo" tail`, "héllo", true},
		{"the simple escapes decode", `"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t", true},
		{"a \\u escape decodes in either case", `"\u00e9\u00C9"`, "éÉ", true},
		{"a surrogate pair is one character", `"\ud83d\ude00!"`, "😀!", true},
		{"a lone high surrogate is U+FFFD", `"\ud83dx"`, "\uFFFDx", true},
		{"a high surrogate before a non-surrogate escape keeps that escape", `"\ud83d\u0041"`, "\uFFFDA", true},
		{"a lone low surrogate is U+FFFD", `"\ude00"`, "\uFFFD", true},
		{"two high surrogates then a pair", `"\ud83d\ud83d\ude00"`, "\uFFFD😀", true},
		{"non-ASCII after an escape is kept", `"\n→é"`, "\n→é", true},
		{"an unknown escape fails", `"\x"`, "", false},
		{"a short \\u escape fails", `"\u12"`, "", false},
		{"a bad hex digit fails", `"\u12g4"`, "", false},
		{"a bad escape after a high surrogate fails", `"\ud83d\uzzzz"`, "", false},
		{"a control character fails", "\"a\nb\"", "", false},
		{"a control character after an escape fails", "\"\\na\tb\"", "", false},
		{"a missing closing quote fails", `"abc`, "", false},
		{"a trailing backslash fails", `"abc\`, "", false},
		{"invalid UTF-8 fails", "\"a\xffb\"", "", false},
		{"invalid UTF-8 after an escape fails", "\"\\na\xffb\"", "", false},
		{"a truncated sequence fails", "\"a\xe2\x86\"", "", false},
		{"an encoded surrogate fails", "\"\xed\xa0\x80\"", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, form := range []string{"string", "bytes"} {
				var buf []byte
				var got string
				var end int
				var ok bool
				if form == "string" {
					got, end, ok = String(c.in, 0, &buf)
				} else {
					got, end, ok = String([]byte(c.in), 0, &buf)
				}
				if ok != c.ok || got != c.want {
					t.Fatalf("%s: got %q, %v; want %q, %v", form, got, ok, c.want, c.ok)
				}
				if ok && c.in[end-1] != '"' {
					t.Fatalf("%s: end %d is not past the closing quote of %q", form, end, c.in)
				}
			}
		})
	}
}

func TestNumber(t *testing.T) {
	cases := []struct {
		in  string
		end int
		ok  bool
	}{
		{"0", 1, true}, {"-0", 2, true}, {"12", 2, true}, {"01", 1, true},
		{"1.5e+3,", 6, true}, {"-2E-7]", 5, true}, {"3.25 ", 4, true},
		{"-", 0, false}, {"1.", 0, false}, {".5", 0, false}, {"1e", 0, false},
		{"1e+", 0, false}, {"-x", 0, false}, {"+1", 0, false},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			end, ok := Number(c.in, 0)
			if ok != c.ok || ok && end != c.end {
				t.Fatalf("Number(%q) = %d, %v; want %d, %v", c.in, end, ok, c.end, c.ok)
			}
		})
	}
}

func TestSpace(t *testing.T) {
	if got := Space(" \t\r\n x", 0); got != 5 {
		t.Fatalf("Space skipped to %d, want 5", got)
	}
	if got := Space([]byte("  "), 1); got != 2 {
		t.Fatalf("Space at the end returned %d, want 2", got)
	}
	if got := Space("\v", 0); got != 0 {
		t.Fatalf("Space skipped a vertical tab (%d): JSON does not count it", got)
	}
}

// A plain literal read from a string is a substring of it, not a copy.
func TestStringDoesNotCopyPlainLiterals(t *testing.T) {
	s := `"` + strings.Repeat("x", 100) + `"`
	var buf []byte
	if n := testing.AllocsPerRun(100, func() { String(s, 0, &buf) }); n != 0 {
		t.Fatalf("String allocated %v times for a plain literal", n)
	}
}

func FuzzStringAgreesWithEncodingJSON(f *testing.F) {
	for _, s := range []string{`"a"`, `"\u00e9\n"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ud83d\u0041"`, "\"\xff\"", `"\q"`, `"abc`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if !strings.HasPrefix(in, `"`) {
			return // String starts at an opening quote
		}
		var buf []byte
		got, end, ok := String(in, 0, &buf)
		gotb, endb, okb := String([]byte(in), 0, &buf)
		if got != gotb || end != endb || ok != okb {
			t.Fatalf("string and bytes disagree: %q %d %v vs %q %d %v", got, end, ok, gotb, endb, okb)
		}
		if !ok {
			if utf8.ValidString(in) && json.Valid([]byte(in)) {
				t.Fatalf("refused the valid literal %q", in)
			}
			return
		}
		var want string
		if err := json.Unmarshal([]byte(in[:end]), &want); err != nil {
			t.Fatalf("accepted %q, which encoding/json refuses: %v", in[:end], err)
		}
		if got != want {
			t.Fatalf("decoded %q as %q, encoding/json as %q", in[:end], got, want)
		}
	})
}

func FuzzNumberAgreesWithEncodingJSON(f *testing.F) {
	for _, s := range []string{"0", "-1.5e3", "01", "1.", "-", "1e+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		end, ok := Number(in, 0)
		if !ok {
			if json.Valid([]byte(in)) && len(in) > 0 && (in[0] == '-' || in[0] >= '0' && in[0] <= '9') {
				t.Fatalf("refused the valid number %q", in)
			}
			return
		}
		if !json.Valid([]byte(in[:end])) {
			t.Fatalf("accepted %q, which is not a JSON number", in[:end])
		}
	})
}
