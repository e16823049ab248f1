package shell

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// awkPrintFields matches the program agents write most, {print $2} or
// {print $1, $NF}: fields printed, nothing else.
var awkPrintFields = regexp.MustCompile(`^\s*\{\s*print\s+(\$(?:\d+|NF)(?:\s*,\s*\$(?:\d+|NF))*)\s*;?\s*\}\s*$`)

// awkFieldPrinter is {print $a, $b…} done without an awk interpreter:
// each line is split where awk would split it and the fields written
// out, with no string made per field (GoAWK makes a slice of strings per
// record, and in the wasm guest that was 8× a native awk's time).
type awkFieldPrinter struct {
	fields []int // 0 is the whole line, -1 is $NF
	sep    byte  // 0: runs of blanks and newlines, as with the default FS
}

// newAwkFieldPrinter returns the printer for src with field separator fs
// ("" when not set), or nil when the program or the separator is
// anything else, which GoAWK then runs.
func newAwkFieldPrinter(src, fs string) *awkFieldPrinter {
	m := awkPrintFields.FindStringSubmatch(src)
	if m == nil {
		return nil
	}
	p := &awkFieldPrinter{}
	switch {
	case fs == "" || fs == " ":
	case len(fs) == 1 && !strings.ContainsAny(fs, `\^$.[]|()*+?{}`):
		p.sep = fs[0]
	default:
		return nil
	}
	for _, f := range strings.Split(m[1], ",") {
		f = strings.TrimSpace(f)[1:]
		if f == "NF" {
			p.fields = append(p.fields, -1)
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n > 1<<20 {
			return nil
		}
		p.fields = append(p.fields, n)
	}
	return p
}

// awkPlainOperands reports whether every operand is a file to read (a
// regular file or a stream such as "-"), not an assignment or a name
// GoAWK would report on, so the fast path sees what GoAWK would.
func awkPlainOperands(c *cmd, operands []string) bool {
	for _, a := range operands {
		if strings.Contains(a, "=") {
			return false
		}
		if a == "-" || isStream(c, a) {
			continue
		}
		if fi, err := os.Stat(c.path(a)); err != nil || !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// run prints the fields of every line of the operands (stdin if none).
func (p *awkFieldPrinter) run(c *cmd, operands []string) int {
	w := c.bufOut()
	defer w.Flush()
	var spans [][2]int
	return c.forEachInput(operands, func(_ string, r io.Reader) error {
		return eachLineBytes(r, func(line []byte) error {
			spans = p.split(line, spans[:0])
			for i, f := range p.fields {
				if i > 0 {
					w.WriteByte(' ')
				}
				switch {
				case f == 0:
					w.Write(line)
				case f == -1 && len(spans) > 0:
					s := spans[len(spans)-1]
					w.Write(line[s[0]:s[1]])
				case f > 0 && f <= len(spans):
					s := spans[f-1]
					w.Write(line[s[0]:s[1]])
				}
			}
			return w.WriteByte('\n')
		})
	})
}

// split appends where each field of line begins and ends to spans.
func (p *awkFieldPrinter) split(line []byte, spans [][2]int) [][2]int {
	if p.sep != 0 {
		if len(line) == 0 {
			return spans
		}
		start := 0
		for {
			j := bytes.IndexByte(line[start:], p.sep)
			if j < 0 {
				return append(spans, [2]int{start, len(line)})
			}
			spans = append(spans, [2]int{start, start + j})
			start += j + 1
		}
	}
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\n') {
			i++
		}
		if i == len(line) {
			return spans
		}
		start := i
		for i < len(line) && line[i] != ' ' && line[i] != '\t' && line[i] != '\n' {
			i++
		}
		spans = append(spans, [2]int{start, i})
	}
}
