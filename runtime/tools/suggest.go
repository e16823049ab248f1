package tools

import "sort"

// closest returns up to three candidates nearest to name by edit distance,
// among those close enough to be a plausible typo.
func closest(name string, candidates []string) []string {
	type scored struct {
		name string
		d    int
	}
	limit := max(2, len(name)/3)
	var hits []scored
	for _, c := range candidates {
		if d := editDistance(name, c); d <= limit {
			hits = append(hits, scored{c, d})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].d < hits[j].d })
	var out []string
	for i := 0; i < len(hits) && i < 3; i++ {
		out = append(out, hits[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance over bytes (tool names are
// ASCII identifiers).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
