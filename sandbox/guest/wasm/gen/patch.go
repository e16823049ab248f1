package main

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// hunk is one "@@ -old,n +new,m @@" section of a unified diff.
type hunk struct {
	oldStart int      // 1-based line of the first old line
	lines    []string // each prefixed by ' ', '-' or '+'
}

// parsePatch reads a unified diff of one file (as git diff writes it) and
// returns its hunks. Lines before the first hunk (the "---"/"+++" header
// and any commentary) are ignored.
func parsePatch(patch []byte) ([]hunk, error) {
	var hunks []hunk
	for n, line := range strings.Split(string(patch), "\n") {
		switch {
		case strings.HasPrefix(line, "@@ "):
			old, _, ok := strings.Cut(strings.TrimPrefix(line, "@@ -"), " ")
			start, _, _ := strings.Cut(old, ",")
			s, err := strconv.Atoi(start)
			if !ok || err != nil {
				return nil, fmt.Errorf("line %d: malformed hunk header %q", n+1, line)
			}
			hunks = append(hunks, hunk{oldStart: s})
		case len(hunks) == 0:
		case line == "" || line == `\ No newline at end of file`:
			// The final newline of the patch, or git's marker.
		case line[0] == ' ' || line[0] == '-' || line[0] == '+':
			h := &hunks[len(hunks)-1]
			h.lines = append(h.lines, line)
		default:
			return nil, fmt.Errorf("line %d: unexpected %q inside a hunk", n+1, line)
		}
	}
	if len(hunks) == 0 {
		return nil, fmt.Errorf("no hunks")
	}
	return hunks, nil
}

// applyPatch applies a unified diff to orig. It is strict: every context
// and removed line must be found exactly where the hunk says, since the
// patches are made against one pinned upstream version.
func applyPatch(orig, patch []byte) ([]byte, error) {
	hunks, err := parsePatch(patch)
	if err != nil {
		return nil, err
	}
	src := strings.Split(string(orig), "\n")
	var out []string
	next := 0 // index in src of the first line not yet copied
	for i, h := range hunks {
		at := h.oldStart - 1
		if h.oldStart == 0 { // a hunk that adds to an empty file
			at = 0
		}
		if at < next || at > len(src) {
			return nil, fmt.Errorf("hunk %d: starts at line %d, out of order or past the end", i+1, h.oldStart)
		}
		out = append(out, src[next:at]...)
		for _, l := range h.lines {
			if l[0] == '+' {
				out = append(out, l[1:])
				continue
			}
			if at >= len(src) || src[at] != l[1:] {
				got := "end of file"
				if at < len(src) {
					got = strconv.Quote(src[at])
				}
				return nil, fmt.Errorf("hunk %d: line %d is %s, the patch expects %q", i+1, at+1, got, l[1:])
			}
			if l[0] == ' ' {
				out = append(out, src[at])
			}
			at++
		}
		next = at
	}
	out = append(out, src[next:]...)
	return []byte(strings.Join(out, "\n")), nil
}

// patchTarget returns the upstream path a patch applies to, from its
// "+++ b/<path>" header.
func patchTarget(patch []byte) (string, error) {
	for _, line := range bytes.Split(patch, []byte("\n")) {
		if p, ok := bytes.CutPrefix(line, []byte("+++ b/")); ok {
			return string(bytes.TrimSpace(p)), nil
		}
	}
	return "", fmt.Errorf("no \"+++ b/<path>\" header")
}
