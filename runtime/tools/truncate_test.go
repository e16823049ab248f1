package tools

import (
	"fmt"
	"strings"
	"testing"
)

func TestTruncateNoteNamesTheOmittedLines(t *testing.T) {
	var lines []string
	for i := 1; i <= 100; i++ {
		lines = append(lines, fmt.Sprintf("line %03d", i)) // 8 bytes + newline
	}
	text := strings.Join(lines, "\n")
	out, _ := truncate(text, 450, "", "c")
	head, rest, _ := strings.Cut(out, "\n[… ")
	note, tail, _ := strings.Cut(rest, " …]\n")
	first := strings.Count(head, "\n") + 1
	last := 100 - strings.Count(tail, "\n") - 1
	if !strings.HasSuffix(head, "\n") || !strings.HasPrefix(tail, "line ") {
		t.Fatalf("test premise: cuts should fall on line boundaries: %q", out)
	}
	if want := fmt.Sprintf("(lines %d-%d of 100)", first, last); !strings.Contains(note, want) {
		t.Fatalf("note %q does not say %s", note, want)
	}
}
