package shell

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

func wc(c *cmd, args []string) int {
	o, err := flagSpec{short: "lwcmL", permute: true, long: map[string]string{"lines": "l", "words": "w", "bytes": "c", "chars": "m", "max-line-length": "L"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	show := []string{}
	for _, f := range []string{"l", "w", "m", "c", "L"} {
		if o.has(f) {
			show = append(show, f)
		}
	}
	if len(show) == 0 {
		show = []string{"l", "w", "c"}
	}
	runes := o.has("w") || o.has("m") || o.has("L") || len(o.args) == 0 && !o.has("l") && !o.has("c")
	var rows []wcCounts
	var names []string
	var total wcCounts
	buf := make([]byte, 64<<10)
	st := c.forEachInput(o.args, func(name string, r io.Reader) error {
		k := wcCounter{runes: runes || !o.has("l") && !o.has("c")}
		for {
			n, err := r.Read(buf)
			k.write(buf[:n])
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
		}
		k.end()
		total.add(k.wcCounts)
		rows = append(rows, k.wcCounts)
		names = append(names, name)
		return nil
	})
	if len(o.args) > 1 {
		rows = append(rows, total)
		names = append(names, "total")
	}
	width := c.wcWidth(o.args, len(show))
	for i, r := range rows {
		parts := make([]string, 0, len(show)+1)
		for _, f := range show {
			parts = append(parts, fmt.Sprintf("%*d", width, r.get(f)))
		}
		if len(o.args) > 0 {
			parts = append(parts, names[i])
		}
		fmt.Fprintln(c.stdout, strings.Join(parts, " "))
	}
	return st
}

// wcCounts are one input's counts.
type wcCounts struct{ lines, words, bytes, chars, width int }

func (t *wcCounts) add(k wcCounts) {
	t.lines += k.lines
	t.words += k.words
	t.bytes += k.bytes
	t.chars += k.chars
	t.width = max(t.width, k.width)
}

func (k wcCounts) get(flag string) int {
	switch flag {
	case "l":
		return k.lines
	case "w":
		return k.words
	case "c":
		return k.bytes
	case "m":
		return k.chars
	}
	return k.width
}

// wcCounter counts a stream a block at a time, in constant memory. Lines
// and bytes need no decoding (lines are counted by countByte); words,
// characters and -L decode runes, carrying a character cut by a
// block's end over to the next. Words are runs of non-space runes
// (unicode.IsSpace, as strings.Fields), characters are runes with each
// invalid byte counting one, -L counts columns with tabs to multiples of 8.
type wcCounter struct {
	wcCounts
	runes  bool
	inWord bool
	col    int
	carry  []byte
}

func (k *wcCounter) write(p []byte) {
	k.bytes += len(p)
	k.lines += countByte(p, '\n')
	if !k.runes {
		return
	}
	if len(k.carry) > 0 { // rare: the last block cut a character
		p = append(k.carry, p...)
		k.carry = nil
	}
	if tail := incompleteTail(p); tail > 0 {
		k.carry = append([]byte(nil), p[len(p)-tail:]...)
		p = p[:len(p)-tail]
	}
	k.decode(p)
}

// end counts a character left cut at the end of the input.
func (k *wcCounter) end() {
	if len(k.carry) > 0 {
		k.decode(k.carry)
		k.carry = nil
	}
	k.width = max(k.width, k.col)
}

func (k *wcCounter) decode(p []byte) {
	for len(p) > 0 {
		r, size := rune(p[0]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(p)
		}
		p = p[size:]
		k.chars++
		if unicode.IsSpace(r) {
			k.inWord = false
		} else if !k.inWord {
			k.inWord = true
			k.words++
		}
		switch r {
		case '\n', '\r', '\f':
			k.width, k.col = max(k.width, k.col), 0
		case '\t':
			k.col += 8 - k.col%8
		default:
			k.col++
		}
	}
}

// incompleteTail is how many bytes at the end of p start a UTF-8
// character that p cuts short (0 when p ends on a whole one).
func incompleteTail(p []byte) int {
	for i := 1; i <= min(3, len(p)); i++ {
		b := p[len(p)-i]
		if b < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(b) {
			if utf8.FullRune(p[len(p)-i:]) {
				return 0
			}
			return i
		}
	}
	return 0
}
