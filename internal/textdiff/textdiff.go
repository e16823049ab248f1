// Package textdiff computes line diffs: a shortest edit script between two
// texts (Myers' O(ND) algorithm) and its unified-diff hunks.
//
// It is the one diff of the project: the terminal UI shows edits with it
// and the sandbox guest's diff command prints with it. It depends on the
// standard library only, because the guest is built for wasip1.
package textdiff

import (
	"fmt"
	"strings"
)

// The kinds of an Op.
const (
	Keep   = ' ' // the line is in both texts
	Delete = '-' // the line is only in the old text
	Insert = '+' // the line is only in the new text
)

// Op is one line of an edit script.
type Op struct {
	Kind byte // Keep, Delete or Insert
	Text string
	// Old and New are the line's 1-based numbers in each text; 0 in the
	// text it is absent from.
	Old, New int
}

// Lines splits a text into lines without their newlines; a final newline
// does not start another line, and "" has none.
func Lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// DefaultMaxEdits is the edit-distance bound both users pass to Edits: a
// search that far holds at most 64 MiB of frontiers, and an edit that
// large is read as a rewrite anyway.
const DefaultMaxEdits = 4000

// Edits returns a shortest edit script turning a into b, deletions before
// insertions where either order is as short. maxEdits bounds the edit
// distance searched for (time is O((N+M)·D) and memory O(D²)): beyond it
// the changed middle is given as all of a's lines deleted and all of b's
// inserted, which is correct but not minimal. Common prefix and suffix are
// taken off first, which is most of the text for a typical edit.
func Edits(a, b []string, maxEdits int) []Op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	out := make([]Op, 0, max(len(a), len(b)))
	for i := 0; i < pre; i++ {
		out = append(out, Op{Keep, a[i], i + 1, i + 1})
	}
	for _, o := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf], maxEdits) {
		if o.Old > 0 {
			o.Old += pre
		}
		if o.New > 0 {
			o.New += pre
		}
		out = append(out, o)
	}
	for i := 0; i < suf; i++ {
		ai, bi := len(a)-suf+i, len(b)-suf+i
		out = append(out, Op{Keep, a[ai], ai + 1, bi + 1})
	}
	return out
}

// myers is the greedy forward search; each round d keeps only its
// frontier, diagonals -d..d, to walk back from the end.
func myers(a, b []string, maxEdits int) []Op {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceAll(a, b)
	}
	limit := min(n+m, maxEdits)
	// trace[d][k+d] is the furthest x reached on diagonal k in round d.
	var trace [][]int32
	var prev []int32
	for d := 0; d <= limit; d++ {
		v := make([]int32, 2*d+1)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && at(prev, d-1, k-1) < at(prev, d-1, k+1)) {
				x = at(prev, d-1, k+1) // down: an insertion
			} else {
				x = at(prev, d-1, k-1) + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[k+d] = int32(x)
			if x >= n && y >= m {
				return walkBack(a, b, append(trace, v))
			}
		}
		trace = append(trace, v)
		prev = v
	}
	return replaceAll(a, b)
}

// at reads diagonal k of round d's frontier v (d < 0: the start).
func at(v []int32, d, k int) int {
	if d < 0 {
		return 0
	}
	return int(v[k+d])
}

// walkBack turns the frontiers of a finished search into the script.
func walkBack(a, b []string, trace [][]int32) []Op {
	x, y := len(a), len(b)
	var rev []Op
	for d := len(trace) - 1; d > 0; d-- {
		k := x - y
		prev := trace[d-1]
		pk := k - 1
		if k == -d || (k != d && at(prev, d-1, k-1) < at(prev, d-1, k+1)) {
			pk = k + 1
		}
		px := at(prev, d-1, pk)
		py := px - pk
		for x > px && y > py {
			x, y = x-1, y-1
			rev = append(rev, Op{Keep, a[x], x + 1, y + 1})
		}
		if x == px {
			y--
			rev = append(rev, Op{Insert, b[y], 0, y + 1})
		} else {
			x--
			rev = append(rev, Op{Delete, a[x], x + 1, 0})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, Op{Keep, a[x], x + 1, y + 1})
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

func replaceAll(a, b []string) []Op {
	out := make([]Op, 0, len(a)+len(b))
	for i, l := range a {
		out = append(out, Op{Delete, l, i + 1, 0})
	}
	for i, l := range b {
		out = append(out, Op{Insert, l, 0, i + 1})
	}
	return out
}

// Hunk is one group of changes with the context around them.
type Hunk struct {
	// OldStart and NewStart are the 1-based numbers of the hunk's first
	// line in each text; where the hunk has no line of a text (its Lines
	// is 0), the number of the line after the place it would be.
	OldStart, OldLines int
	NewStart, NewLines int
	Ops                []Op
}

// Unified groups an edit script into hunks with up to context unchanged
// lines around each change, as `diff -U context` does: changes closer
// than 2·context lines share a hunk. With context 0 each hunk is one run
// of adjacent changes (as with a negative context).
func Unified(ops []Op, context int) []Hunk {
	context = max(context, 0)
	var out []Hunk
	pos, oldSeen, newSeen := 0, 0, 0 // lines of each text in ops[:pos]
	for i := 0; i < len(ops); {
		if ops[i].Kind == Keep {
			i++
			continue
		}
		start, end := max(i-context, 0), i
		for end < len(ops) {
			if ops[end].Kind != Keep {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].Kind == Keep {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(end+context, run)
				break
			}
			end = run
		}
		for ; pos < start; pos++ {
			oldSeen, newSeen = count(ops[pos], oldSeen, newSeen)
		}
		h := Hunk{OldStart: oldSeen + 1, NewStart: newSeen + 1, Ops: ops[start:end]}
		for _, o := range h.Ops {
			h.OldLines, h.NewLines = count(o, h.OldLines, h.NewLines)
		}
		out = append(out, h)
		i = end
	}
	return out
}

// count adds an op's line to the old and new line counts it belongs to.
func count(o Op, old, new int) (int, int) {
	if o.Kind != Insert {
		old++
	}
	if o.Kind != Delete {
		new++
	}
	return old, new
}

// Header is the hunk's "@@ -l,n +l,n @@" line as GNU diff prints it (a
// count of 1 left out; an empty range numbered by the line before it).
func (h Hunk) Header() string {
	return fmt.Sprintf("@@ -%s +%s @@", hunkRange(h.OldStart, h.OldLines), hunkRange(h.NewStart, h.NewLines))
}

func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
