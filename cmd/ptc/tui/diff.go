package tui

import (
	"fmt"
	"strings"
)

// diffLine is one line of a unified diff: kind ' ' (context), '-', '+',
// or '@' for a hunk header (text holds the header).
type diffLine struct {
	kind byte
	text string
}

// diffContext is the number of unchanged lines shown around a change.
const diffContext = 3

// maxDiffEdits bounds the edit distance the diff looks for; a rewrite
// beyond it is shown as the old text removed and the new one added.
const maxDiffEdits = 4000

// unifiedDiff returns the hunks turning a into b, with diffContext lines
// of context, as `diff -u` shows them (without the file header).
func unifiedDiff(a, b string) []diffLine {
	al, bl := splitLines(a), splitLines(b)
	ops := editScript(al, bl)
	return hunks(ops)
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// op is one step of an edit script, with the line numbers (1-based) it
// has in each text.
type op struct {
	kind         byte
	text         string
	oldNo, newNo int
}

// editScript is a shortest edit script from a to b (Myers' greedy O(ND)
// algorithm; each round keeps only its diagonals 2d+1 wide, so memory is
// O(D²) rather than O((N+M)·D)). Common prefix and suffix are taken off
// first, which is most of the file for a typical edit.
func editScript(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []op
	for i := 0; i < pre; i++ {
		out = append(out, op{' ', a[i], i + 1, i + 1})
	}
	mid := myers(a[pre:len(a)-suf], b[pre:len(b)-suf])
	for _, o := range mid {
		if o.oldNo > 0 {
			o.oldNo += pre
		}
		if o.newNo > 0 {
			o.newNo += pre
		}
		out = append(out, o)
	}
	for i := 0; i < suf; i++ {
		ai, bi := len(a)-suf+i, len(b)-suf+i
		out = append(out, op{' ', a[ai], ai + 1, bi + 1})
	}
	return out
}

func myers(a, b []string) []op {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceAll(a, b)
	}
	limit := min(n+m, maxDiffEdits)
	// v[k+d] for round d holds the furthest x on diagonal k.
	var trace [][]int
	prev := []int{0}
	for d := 0; d <= limit; d++ {
		v := make([]int, 2*d+1)
		for k := -d; k <= d; k += 2 {
			var x int
			switch {
			case k == -d:
				x = at(prev, d-1, k+1)
			case k == d:
				x = at(prev, d-1, k-1) + 1
			case at(prev, d-1, k-1) < at(prev, d-1, k+1):
				x = at(prev, d-1, k+1)
			default:
				x = at(prev, d-1, k-1) + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[k+d] = x
			if x >= n && y >= m {
				trace = append(trace, v)
				return walkBack(a, b, trace)
			}
		}
		trace = append(trace, v)
		prev = v
	}
	return replaceAll(a, b)
}

// at reads diagonal k of round d's frontier (d < 0: the start).
func at(v []int, d, k int) int {
	if d < 0 {
		return 0
	}
	return v[k+d]
}

func walkBack(a, b []string, trace [][]int) []op {
	x, y := len(a), len(b)
	var rev []op
	for d := len(trace) - 1; d > 0; d-- {
		k := x - y
		prev := trace[d-1]
		var pk int
		if k == -d || (k != d && at(prev, d-1, k-1) < at(prev, d-1, k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(prev, d-1, pk)
		py := px - pk
		for x > px && y > py {
			x, y = x-1, y-1
			rev = append(rev, op{' ', a[x], x + 1, y + 1})
		}
		if x == px {
			y--
			rev = append(rev, op{'+', b[y], 0, y + 1})
		} else {
			x--
			rev = append(rev, op{'-', a[x], x + 1, 0})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, op{' ', a[x], x + 1, y + 1})
	}
	out := make([]op, len(rev))
	for i, o := range rev {
		out[len(rev)-1-i] = o
	}
	return out
}

func replaceAll(a, b []string) []op {
	var out []op
	for i, l := range a {
		out = append(out, op{'-', l, i + 1, 0})
	}
	for i, l := range b {
		out = append(out, op{'+', l, 0, i + 1})
	}
	return out
}

// hunks groups an edit script into unified-diff hunks.
func hunks(ops []op) []diffLine {
	var out []diffLine
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-diffContext, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run-end > 2*diffContext || run == len(ops) {
				end = min(end+diffContext, len(ops))
				break
			}
			end = run
		}
		out = append(out, hunkHeader(ops[start:end]))
		for _, o := range ops[start:end] {
			out = append(out, diffLine{o.kind, o.text})
		}
		i = end
	}
	return out
}

func hunkHeader(ops []op) diffLine {
	oldStart, newStart, oldN, newN := 0, 0, 0, 0
	for _, o := range ops {
		if o.kind != '+' {
			if oldStart == 0 {
				oldStart = o.oldNo
			}
			oldN++
		}
		if o.kind != '-' {
			if newStart == 0 {
				newStart = o.newNo
			}
			newN++
		}
	}
	return diffLine{'@', fmt.Sprintf("@@ -%s +%s @@", hunkRange(oldStart, oldN), hunkRange(newStart, newN))}
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
