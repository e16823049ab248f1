package shell

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// xargsItem is one input item and whether it ended an input line (for -L).
type xargsItem struct {
	text    string
	lineEnd bool
}

// xargsWords splits input as GNU xargs does by default: blanks and
// newlines separate items, single and double quotes and backslashes
// quote, and an unmatched quote is an error.
func xargsWords(data string) ([]xargsItem, error) {
	var out []xargsItem
	var cur strings.Builder
	inItem := false
	var quote byte
	flush := func(lineEnd bool) {
		if inItem {
			out = append(out, xargsItem{cur.String(), lineEnd})
			cur.Reset()
			inItem = false
		} else if lineEnd && len(out) > 0 {
			out[len(out)-1].lineEnd = true
		}
	}
	for i := 0; i < len(data); i++ {
		ch := data[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
				continue
			}
			if ch == '\n' {
				return nil, fmt.Errorf("unmatched %s quote; by default quotes are special to xargs unless you use the -0 option", map[byte]string{'\'': "single", '"': "double"}[quote])
			}
			cur.WriteByte(ch)
		case ch == '\'' || ch == '"':
			quote, inItem = ch, true
		case ch == '\\' && i+1 < len(data):
			i++
			cur.WriteByte(data[i])
			inItem = true
		case ch == '\n':
			flush(true)
		case ch == ' ' || ch == '\t':
			flush(false)
		default:
			cur.WriteByte(ch)
			inItem = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unmatched %s quote; by default quotes are special to xargs unless you use the -0 option", map[byte]string{'\'': "single", '"': "double"}[quote])
	}
	flush(true)
	return out, nil
}

// xargs reads items from stdin (or -a FILE) and runs the command with
// them through the interpreter (functions and builtins work; there is no
// exec). -P is accepted and runs the batches one after another.
func xargs(c *cmd, args []string) int {
	o, err := flagSpec{short: "n:I:i0rtd:L:l:P:E:e:s:a:xp", long: map[string]string{
		"max-args=": "n", "replace=": "I", "null": "0", "no-run-if-empty": "r", "verbose": "t", "delimiter=": "d",
		"max-lines=": "L", "max-procs=": "P", "eof=": "E", "max-chars=": "s", "arg-file=": "a", "exit": "x",
	}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	command := o.args
	if len(command) == 0 {
		command = []string{"echo"}
	}
	in := c.stdin
	if f := o.val("a"); f != "" {
		r, err := c.open(f)
		if err != nil {
			c.fail("%s: %s", f, errText(err))
			return 1
		}
		defer r.Close()
		in = r
	}
	data, err := io.ReadAll(in)
	if err != nil {
		return c.fail("%v", err)
	}
	replace := o.val("I")
	if o.has("i") && replace == "" {
		replace = "{}"
	}
	items, err := xargsInput(o, string(data), replace != "")
	if err != nil {
		return c.fail("%v", err)
	}
	if eof := o.val("E") + o.val("e"); eof != "" {
		for i, it := range items {
			if it.text == eof {
				items = items[:i]
				break
			}
		}
	}
	if len(items) == 0 && (o.has("r") || replace != "") {
		return 0
	}
	perArgs, perLines, maxChars := 0, 0, 0
	for _, f := range []struct {
		flag string
		dst  *int
	}{{"n", &perArgs}, {"L", &perLines}, {"l", &perLines}, {"s", &maxChars}} {
		if v := o.val(f.flag); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				c.fail("invalid number \"%s\" for -%s option", v, f.flag)
				return 1
			}
			*f.dst = n
		}
	}
	if o.has("l") && perLines == 0 {
		perLines = 1
	}
	if replace != "" {
		perArgs, perLines = 0, 1
	}
	status := 0
	for start := 0; start < len(items) || start == 0; {
		end := xargsBatchEnd(items, start, command, perArgs, perLines, maxChars)
		batch := make([]string, 0, end-start)
		for _, it := range items[start:end] {
			batch = append(batch, it.text)
		}
		argv := xargsArgv(command, batch, replace)
		if o.has("t") {
			fmt.Fprintln(c.stderr, strings.Join(argv, " "))
		}
		switch st := c.reenter(argv); {
		case st == 255:
			c.fail("%s: exited with status 255; aborting", argv[0])
			return 124
		case st == 126 || st == 127:
			return st
		case st != 0:
			status = 123
		}
		if end <= start {
			break
		}
		start = end
	}
	return status
}

// xargsInput splits the input per the -0/-d/-I mode.
func xargsInput(o *opts, data string, lines bool) ([]xargsItem, error) {
	var sep string
	switch {
	case o.has("0"):
		sep = "\x00"
	case o.has("d"):
		sep = unescapeAwk(o.val("d"))
	case lines:
		var out []xargsItem
		for _, l := range strings.Split(data, "\n") {
			if l = strings.TrimLeft(l, " \t"); l != "" {
				out = append(out, xargsItem{l, true})
			}
		}
		return out, nil
	default:
		return xargsWords(data)
	}
	if sep == "" {
		return nil, errors.New("invalid delimiter")
	}
	parts := strings.Split(data, sep)
	if len(parts) > 0 && parts[len(parts)-1] == "" || sep != "\n" && len(parts) > 0 && parts[len(parts)-1] == "\n" {
		parts = parts[:len(parts)-1]
	}
	out := make([]xargsItem, len(parts))
	for i, p := range parts {
		out[i] = xargsItem{p, true}
	}
	return out, nil
}

// xargsBatchEnd returns where the batch starting at start ends under the
// -n, -L and -s limits.
func xargsBatchEnd(items []xargsItem, start int, command []string, perArgs, perLines, maxChars int) int {
	size := 0
	for _, a := range command {
		size += len(a) + 1
	}
	limit := maxChars
	if limit == 0 {
		limit = 128 << 10
	}
	end, lines := start, 0
	for end < len(items) {
		if perArgs > 0 && end-start >= perArgs {
			break
		}
		if end > start && size+len(items[end].text)+1 > limit {
			break
		}
		size += len(items[end].text) + 1
		end++
		if items[end-1].lineEnd {
			lines++
			if perLines > 0 && lines >= perLines {
				break
			}
		}
	}
	return end
}

func xargsArgv(command, batch []string, replace string) []string {
	if replace == "" {
		return append(append([]string(nil), command...), batch...)
	}
	argv := make([]string, len(command))
	joined := strings.Join(batch, " ")
	for i, a := range command {
		argv[i] = strings.ReplaceAll(a, replace, joined)
	}
	return argv
}
