package main

import (
	"strings"
	"testing"
)

func TestApplyPatch(t *testing.T) {
	orig := "a\nb\nc\nd\ne\nf\n"
	tests := []struct {
		name, patch, want, err string
	}{
		{"a hunk replaces and adds lines", "--- a/x\n+++ b/x\n@@ -2,3 +2,4 @@\n b\n-c\n+C\n+C2\n d\n", "a\nb\nC\nC2\nd\ne\nf\n", ""},
		{"two hunks apply in order", "@@ -1,2 +1,1 @@\n-a\n b\n@@ -5,2 +4,3 @@\n e\n+E\n f\n", "b\nc\nd\ne\nE\nf\n", ""},
		{"a context line that differs is refused", "@@ -2,2 +2,2 @@\n b\n-x\n+y\n", "", "line 3 is \"c\""},
		{"a hunk past the end is refused", "@@ -40,1 +40,1 @@\n-a\n+b\n", "", "past the end"},
		{"a patch without hunks is refused", "--- a/x\n+++ b/x\n", "", "no hunks"},
		{"garbage inside a hunk is refused", "@@ -1,1 +1,1 @@\n-a\n?b\n", "", "unexpected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := applyPatch([]byte(orig), []byte(tt.patch))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %q, %v; want an error with %q", got, err, tt.err)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func FuzzApplyPatch(f *testing.F) {
	f.Add([]byte("a\nb\n"), []byte("@@ -1,1 +1,1 @@\n-a\n+b\n"))
	f.Fuzz(func(t *testing.T, orig, patch []byte) {
		applyPatch(orig, patch) // must not panic
	})
}
