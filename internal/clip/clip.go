// Package clip is ptc's one way to shorten a string for a message, an
// event or a listing: cut at a byte budget, never inside a UTF-8
// character, with "…" marking the cut. (sdkgen keeps its own few lines,
// as it imports nothing of ours.)
package clip

import "unicode/utf8"

// Ellipsis marks where a clipped string was cut.
const Ellipsis = "…"

// String returns s when it is at most limit bytes long, else its longest
// prefix of at most limit bytes that ends on a character boundary, followed
// by Ellipsis (so the result may be up to len(Ellipsis) bytes over limit).
// A limit below 1 leaves only the ellipsis of a non-empty s.
func String(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	n := max(0, limit)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + Ellipsis
}
