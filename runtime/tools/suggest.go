package tools

import (
	"sort"
	"strings"
)

// Closest returns up to three candidates that look like a misspelling of
// name, nearest first (ties by name): those within a small edit distance
// (case-insensitive) and those that contain name or are contained in it.
// UNKNOWN_TOOL results and run_code's pre-flight use it for suggestions.
func Closest(name string, candidates []string) []string {
	type scored struct {
		name string
		d    int
	}
	limit := max(2, len(name)/3)
	var hits []scored
	for _, c := range candidates {
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		if d <= limit || strings.Contains(c, name) || strings.Contains(name, c) {
			hits = append(hits, scored{c, d})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].d != hits[j].d {
			return hits[i].d < hits[j].d
		}
		return hits[i].name < hits[j].name
	})
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
