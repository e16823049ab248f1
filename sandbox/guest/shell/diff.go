package shell

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
