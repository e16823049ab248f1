package textdiff

import (
	"fmt"
	"strings"
	"testing"
)

// render prints hunks as diff -U prints them, without the file header.
func render(hunks []Hunk) []string {
	var out []string
	for _, h := range hunks {
		out = append(out, h.Header())
		for _, o := range h.Ops {
			out = append(out, string(o.Kind)+o.Text)
		}
	}
	return out
}

func TestUnified(t *testing.T) {
	cases := []struct {
		name, a, b string
		context    int
		want       []string
	}{
		{"identical texts have no hunks", "a\nb\n", "a\nb\n", 3, nil},
		{"a new file is all additions", "", "x\ny\n", 3, []string{"@@ -0,0 +1,2 @@", "+x", "+y"}},
		{"a deleted file is all removals", "x\n", "", 3, []string{"@@ -1 +0,0 @@", "-x"}},
		{"one changed line keeps three lines of context", "1\n2\n3\n4\n5\n6\n7\n", "1\n2\n3\nFOUR\n5\n6\n7\n", 3,
			[]string{"@@ -1,7 +1,7 @@", " 1", " 2", " 3", "-4", "+FOUR", " 5", " 6", " 7"}},
		{"distant changes are separate hunks", "a\n1\n2\n3\n4\n5\n6\n7\n8\nz\n", "A\n1\n2\n3\n4\n5\n6\n7\n8\nZ\n", 3,
			[]string{"@@ -1,4 +1,4 @@", "-a", "+A", " 1", " 2", " 3", "@@ -7,4 +7,4 @@", " 6", " 7", " 8", "-z", "+Z"}},
		{"changes six lines apart share a hunk", "a\n1\n2\n3\n4\n5\n6\nz\n", "A\n1\n2\n3\n4\n5\n6\nZ\n", 3,
			[]string{"@@ -1,8 +1,8 @@", "-a", "+A", " 1", " 2", " 3", " 4", " 5", " 6", "-z", "+Z"}},
		{"an insertion in the middle", "a\nc\n", "a\nb\nc\n", 3, []string{"@@ -1,2 +1,3 @@", " a", "+b", " c"}},
		{"without context an insertion is numbered by the line before it", "1\n2\n3\n4\n", "1\nTWO\n3\n4\n5\n", 0,
			[]string{"@@ -2 +2 @@", "-2", "+TWO", "@@ -4,0 +5 @@", "+5"}},
		{"without context a deletion at the top is numbered 0 in the new text", "x\ny\n", "y\n", 0,
			[]string{"@@ -1 +0,0 @@", "-x"}},
		{"deletions come before insertions in a changed run", "a\nb\n", "x\ny\n", 3,
			[]string{"@@ -1,2 +1,2 @@", "-a", "-b", "+x", "+y"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := render(Unified(Edits(Lines(c.a), Lines(c.b), 1000), c.context))
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Fatalf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestEditsPastTheBoundReplaceTheMiddle(t *testing.T) {
	a := Lines("keep\n1\n2\n3\nkeep too\n")
	b := Lines("keep\nx\n2\ny\nkeep too\n")
	if n := len(Edits(a, b, 100)); n != 7 {
		t.Fatalf("within the bound the script has %d ops, want 7 (2 kept, 2 replaced, 1 kept)", n)
	}
	var got []string
	for _, o := range Edits(a, b, 1) {
		got = append(got, string(o.Kind)+o.Text)
	}
	want := []string{" keep", "-1", "-2", "-3", "+x", "+2", "+y", " keep too"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func FuzzEditsReplayBothTexts(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nx\nc\nd\n", 10)
	f.Add("", "x", 0)
	f.Add("a\nb\na\nb\n", "b\na\nb\na\n", 2)
	f.Fuzz(func(t *testing.T, a, b string, bound int) {
		al, bl := Lines(a), Lines(b)
		ops := Edits(al, bl, bound%64)
		var old, nu []string
		for _, o := range ops {
			switch o.Kind {
			case Keep:
				old, nu = append(old, o.Text), append(nu, o.Text)
			case Delete:
				old = append(old, o.Text)
			case Insert:
				nu = append(nu, o.Text)
			}
			if (o.Kind != Insert && al[o.Old-1] != o.Text) || (o.Kind != Delete && bl[o.New-1] != o.Text) {
				t.Fatalf("op %+v names the wrong line", o)
			}
		}
		if strings.Join(old, "\n") != strings.Join(al, "\n") || strings.Join(nu, "\n") != strings.Join(bl, "\n") {
			t.Fatalf("the edit script does not replay %q → %q", a, b)
		}
		for _, h := range Unified(ops, bound%5) {
			if old, nu := count2(h.Ops); old != h.OldLines || nu != h.NewLines {
				t.Fatalf("hunk %s holds %d old and %d new lines", h.Header(), old, nu)
			}
		}
	})
}

func count2(ops []Op) (old, nu int) {
	for _, o := range ops {
		old, nu = count(o, old, nu)
	}
	return old, nu
}

func ExampleUnified() {
	old := Lines("one\ntwo\nthree\n")
	new := Lines("one\n2\nthree\nfour\n")
	for _, h := range Unified(Edits(old, new, 100), 1) {
		fmt.Println(h.Header())
		for _, o := range h.Ops {
			fmt.Printf("%c%s\n", o.Kind, o.Text)
		}
	}
	// Output:
	// @@ -1,3 +1,4 @@
	//  one
	// -two
	// +2
	//  three
	// +four
}
