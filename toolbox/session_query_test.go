package toolbox

import "testing"

func TestReadableDropsWhatCouldDriveATerminal(t *testing.T) {
	cases := map[string]string{
		"plain\ttext\nkept":             "plain\ttext\nkept",
		"esc\x1b[2J bell\x07 del\x7f":   "esc[2J bell del",
		"c1\u009b bidi\u202e sep\u2028": "c1 bidi sep",
		"bad \xff byte":                 "bad \uFFFD byte",
	}
	for in, want := range cases {
		if got := readable(in, 100); got != want {
			t.Errorf("readable(%q) = %q, want %q", in, got, want)
		}
	}
	if got := readable("αβγδε", 5); got != "αβ…" {
		t.Errorf("cut: %q", got)
	}
}
