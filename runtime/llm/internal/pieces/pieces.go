// Package pieces cuts streamed text into delta-sized pieces, shared by the
// scripted provider and the fake server so both stream alike.
package pieces

import "unicode/utf8"

// Split cuts s into at most n non-empty pieces of about equal size, never
// inside a UTF-8 sequence. An empty s gives no pieces.
func Split(s string, n int) []string {
	if s == "" {
		return nil
	}
	n = max(n, 1)
	size := (len(s) + n - 1) / n
	var out []string
	for len(s) > 0 {
		end := min(size, len(s))
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}
