package shell

import "github.com/ptc-dev/ptc/internal/textdiff"

var diffCommands = map[string]builtinFunc{"diff": diff}

// editsBy diffs a and b comparing lines through key (when not nil: -w, -b
// and -i) but keeps the original lines in the script, as GNU diff prints
// them (a kept line as it is in a). Past textdiff.DefaultMaxEdits the
// changed middle is printed as replaced whole, where GNU diff would give
// up on minimality its own way.
func editsBy(a, b []string, key func(string) string) []textdiff.Op {
	if key == nil {
		return textdiff.Edits(a, b, textdiff.DefaultMaxEdits)
	}
	ka, kb := make([]string, len(a)), make([]string, len(b))
	for i, l := range a {
		ka[i] = key(l)
	}
	for i, l := range b {
		kb[i] = key(l)
	}
	ops := textdiff.Edits(ka, kb, textdiff.DefaultMaxEdits)
	for i, o := range ops {
		if o.Kind == textdiff.Insert {
			ops[i].Text = b[o.New-1]
		} else {
			ops[i].Text = a[o.Old-1]
		}
	}
	return ops
}
