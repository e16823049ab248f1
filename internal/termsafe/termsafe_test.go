package termsafe

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

func TestString(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"plain text is kept as is", "hello, wörld ✓", "hello, wörld ✓"},
		{"newlines and tabs are kept", "a\n\tb", "a\n\tb"},
		{"an escape sequence that clears the screen is shown escaped", "x\x1b[2J\x1b[Hy", `x\x1b[2J\x1b[Hy`},
		{"a carriage return cannot overwrite the line", "safe\rEVIL", `safe\rEVIL`},
		{"bell and DEL are escaped", "\a\x7f", `\x07\x7f`},
		{"a C1 CSI is escaped", "a\u009b2Jb", `a\u009b2Jb`},
		{"a right-to-left override is escaped", "ls \u202egnp.exe", `ls \u202egnp.exe`},
		{"isolates and marks are escaped", "\u2066x\u2069\u200f", `\u2066x\u2069\u200f`},
		{"line separators are escaped", "a\u2028b", `a\u2028b`},
		{"invalid UTF-8 shows its bytes", "a\xffb", `a\xffb`},
		{"an OSC 52 clipboard write is escaped", "\x1b]52;c;aGk=\x07", `\x1b]52;c;aGk=\x07`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := String(c.in); got != c.want {
				t.Fatalf("String(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestLineEscapesNewlinesAndTabs(t *testing.T) {
	if got := Line("run_code\n\tx\x1b"); got != `run_code\n\tx\x1b` {
		t.Fatalf("Line = %q", got)
	}
}

func TestClipCutsAtACharacterBoundary(t *testing.T) {
	got := Clip("ééééé", 5)
	if got != "éé…" {
		t.Fatalf("Clip = %q", got)
	}
	if got := Clip("short", 10); got != "short" {
		t.Fatalf("Clip = %q", got)
	}
}

func TestCleanTextIsNotCopied(t *testing.T) {
	s := strings.Repeat("abc ", 100)
	if n := testing.AllocsPerRun(10, func() { _ = String(s) }); n != 0 {
		t.Fatalf("String allocated %v times on clean text", n)
	}
}

func FuzzStringNeverLeavesAControl(f *testing.F) {
	for _, s := range []string{"", "a\x1b[31mred", "\u202e", "\xff\xfe", "ok\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Line(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Line(%q) is not valid UTF-8: %q", s, out)
		}
		for _, r := range out {
			if r < 0x20 || r == 0x7f || unsafeRune(r) {
				t.Fatalf("Line(%q) = %q still holds %U", s, out, r)
			}
		}
		if clean(s, false) != (String(s) == s) {
			t.Fatalf("the fast check for %q disagrees with String", s)
		}
	})
}

func ExampleString() {
	justification := "run `ls` read-only\x1b[2J\x1b[H"
	fmt.Println(String(justification))
	// Output: run `ls` read-only\x1b[2J\x1b[H
}

func TestVisible(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain text is unchanged", "ls -la", "ls -la"},
		{"a run of spaces shows its length", "ls -la" + strings.Repeat(" ", 300) + "; echo HOST > x", "ls -la⟨300 spaces⟩; echo HOST > x"},
		{"two spaces are a run", "a  b", "a⟨2 spaces⟩b"},
		{"tabs and newlines are escaped", "a\tb\nc", `a\tb\nc`},
		{"look-alike and invisible spaces are escaped", "rm\u00a0-rf\u200b /\ufeff", `rm\u00a0-rf\u200b /\ufeff`},
		{"a literal marker cannot pass for one", "⟨300 spaces⟩", `\u27e8300 spaces⟩`},
		{"escape sequences stay escaped", "\x1b[2J", `\x1b[2J`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Visible(c.in); got != c.want {
				t.Fatalf("Visible(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestWrap(t *testing.T) {
	t.Run("every character appears once, no row wider than asked", func(t *testing.T) {
		s := strings.Repeat("abcdefghij", 25) + "日本語" + strings.Repeat("x", 40)
		rows := Wrap(s, 30)
		if strings.Join(rows, "") != s {
			t.Fatalf("rows lose or add text: %q", rows)
		}
		for _, r := range rows {
			if w := runewidth.StringWidth(r); w > 30 {
				t.Fatalf("row %q is %d columns", r, w)
			}
		}
	})
	t.Run("a marker is kept whole on a row", func(t *testing.T) {
		rows := Wrap("0123456789ab⟨300 spaces⟩cd", 16)
		if rows[0] != "0123456789ab" || rows[1] != "⟨300 spaces⟩cd" {
			t.Fatalf("%q", rows)
		}
	})
	t.Run("empty text is one empty row", func(t *testing.T) {
		if rows := Wrap("", 20); len(rows) != 1 || rows[0] != "" {
			t.Fatalf("%q", rows)
		}
	})
}
