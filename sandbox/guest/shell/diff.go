package shell

import (
	"fmt"
	"io"
	"strings"
)

var diffCommands = map[string]builtinFunc{"diff": diff}

// editOp is one line of an edit script: ' ' keep, '-' delete, '+' insert.
type editOp struct {
	kind byte
	text string
}

// myers returns a shortest edit script turning a into b (Myers' O(ND)
// greedy algorithm, keeping each round's frontier to walk back).
func myers(a, b []string) []editOp {
	n, m := len(a), len(b)
	maxD := n + m
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(a, b, trace, off, d)
			}
		}
	}
	return nil
}

func backtrack(a, b []string, trace [][]int, off, d int) []editOp {
	var ops []editOp
	x, y := len(a), len(b)
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var pk int
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := v[off+pk]
		py := px - pk
		for x > px && y > py {
			x, y = x-1, y-1
			ops = append(ops, editOp{' ', a[x]})
		}
		if x == px {
			y--
			ops = append(ops, editOp{'+', b[y]})
		} else {
			x--
			ops = append(ops, editOp{'-', a[x]})
		}
	}
	for x > 0 {
		x--
		ops = append(ops, editOp{' ', a[x]})
	}
	for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
		ops[i], ops[j] = ops[j], ops[i]
	}
	return ops
}

// unified renders ops as unified-diff hunks with ctx lines of context.
func unified(w io.Writer, ops []editOp, ctx int) {
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-ctx, 0)
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
			if run == len(ops) || run-end > 2*ctx {
				end = min(end+ctx, run)
				break
			}
			end = run
		}
		aLine, bLine := 1, 1
		for _, op := range ops[:start] {
			if op.kind != '+' {
				aLine++
			}
			if op.kind != '-' {
				bLine++
			}
		}
		aN, bN := 0, 0
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				aN++
			}
			if op.kind != '-' {
				bN++
			}
		}
		fmt.Fprintf(w, "@@ -%s +%s @@\n", hunkRange(aLine, aN), hunkRange(bLine, bN))
		for _, op := range ops[start:end] {
			fmt.Fprintf(w, "%c%s\n", op.kind, op.text)
		}
		i = end
	}
}

func hunkRange(line, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", line-1)
	}
	if n == 1 {
		return fmt.Sprint(line)
	}
	return fmt.Sprintf("%d,%d", line, n)
}

func diff(c *cmd, args []string) int {
	o, err := flagSpec{short: "uqNaU:", permute: true, long: map[string]string{"brief": "q", "unified": "u"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) != 2 {
		c.fail("expected two files to compare")
		return 2
	}
	texts := [2]string{}
	for i, name := range o.args {
		var b strings.Builder
		if st := c.forEachInput([]string{name}, func(_ string, r io.Reader) error {
			_, err := io.Copy(&b, r)
			return err
		}); st != 0 {
			return 2
		}
		texts[i] = b.String()
	}
	if texts[0] == texts[1] {
		return 0
	}
	if o.has("q") {
		fmt.Fprintf(c.stdout, "Files %s and %s differ\n", o.args[0], o.args[1])
		return 1
	}
	ctx := 3
	fmt.Sscan(o.val("U"), &ctx)
	fmt.Fprintf(c.stdout, "--- %s\n+++ %s\n", o.args[0], o.args[1])
	unified(c.stdout, myers(splitText(texts[0]), splitText(texts[1])), ctx)
	return 1
}

func splitText(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
