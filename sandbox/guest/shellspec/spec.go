package shellspec

import (
	"bufio"
	"bytes"
	"strings"
)

// Case is one spec case: the shell code between a "#### name" line and the
// next one, without the "## " metadata lines (expected outputs) that Oils
// puts among them.
type Case struct {
	Name string
	Line int // 1-based line of the "####" header
	Code string
}

// Parse splits a spec file into its cases. Lines before the first case
// are the file's header and are dropped. Within a case, "## KEY: value"
// lines and the "## ...STDOUT:" / "## ...STDERR:" blocks up to "## END"
// are metadata; "## code: X" gives the whole code of a one-line case.
// Everything else, comments included, is code.
func Parse(src []byte) []Case {
	var cases []Case
	var cur *Case
	var code strings.Builder
	inBlock := false
	flush := func() {
		if cur != nil {
			if cur.Code == "" {
				cur.Code = code.String()
			}
			cases = append(cases, *cur)
		}
		code.Reset()
	}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#### "):
			flush()
			cur = &Case{Name: strings.TrimSpace(line[5:]), Line: n}
			inBlock = false
		case cur == nil:
		case inBlock:
			inBlock = !strings.HasPrefix(line, "## END")
		case strings.HasPrefix(line, "## "):
			meta := strings.TrimSpace(line[3:])
			if v, ok := strings.CutPrefix(meta, "code:"); ok {
				cur.Code = strings.TrimSpace(v) + "\n"
			}
			inBlock = strings.HasSuffix(meta, "STDOUT:") || strings.HasSuffix(meta, "STDERR:")
		default:
			code.WriteString(line)
			code.WriteByte('\n')
		}
	}
	flush()
	return cases
}
