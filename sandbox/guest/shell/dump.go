package shell

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
)

var dumpCommands = map[string]builtinFunc{
	"od":  od,
	"xxd": xxd,
	"cmp": cmpCmd,
}

// odType is one output format of od: a letter (a c d o u x), the element
// size in bytes and whether text follows the line (the z suffix).
type odType struct {
	kind byte
	size int
	text bool
}

// width is how many columns one element takes, its leading blank
// included, as GNU od prints it.
func (t odType) width() int {
	switch t.kind {
	case 'a', 'c':
		return 4
	case 'x':
		return 1 + 2*t.size
	case 'o':
		return 1 + (8*t.size+2)/3
	}
	digits := len(strconv.FormatUint(1<<(8*t.size)-1, 10))
	if t.kind == 'd' {
		return 2 + len(strconv.FormatUint(1<<(8*t.size-1), 10))
	}
	return 1 + digits
}

var odNames = []string{"nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr", "so", "si",
	"dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp"}

func (t odType) format(b []byte) string {
	switch t.kind {
	case 'c':
		switch ch := b[0]; {
		case ch == 0:
			return `\0`
		case strings.IndexByte("\a\b\f\n\r\t\v", ch) >= 0:
			return `\` + string("abfnrtv"[strings.IndexByte("\a\b\f\n\r\t\v", ch)])
		case ch >= 32 && ch < 127:
			return string(ch)
		default:
			return fmt.Sprintf("%03o", ch)
		}
	case 'a':
		ch := b[0] & 0x7f
		switch {
		case int(ch) < len(odNames):
			return odNames[ch]
		case ch == 127:
			return "del"
		}
		return string(ch)
	}
	var u uint64
	switch t.size {
	case 1:
		u = uint64(b[0])
	case 2:
		u = uint64(binary.LittleEndian.Uint16(b))
	case 4:
		u = uint64(binary.LittleEndian.Uint32(b))
	default:
		u = binary.LittleEndian.Uint64(b)
	}
	switch t.kind {
	case 'x':
		return fmt.Sprintf("%0*x", 2*t.size, u)
	case 'o':
		return fmt.Sprintf("%0*o", (8*t.size+2)/3, u)
	case 'd':
		shift := 64 - 8*t.size
		return strconv.FormatInt(int64(u<<shift)>>shift, 10)
	}
	return strconv.FormatUint(u, 10)
}

// parseODType reads a -t argument such as x1, c, o2 or x1z.
func parseODType(s string) ([]odType, error) {
	var out []odType
	for s != "" {
		t := odType{kind: s[0], size: 1}
		s = s[1:]
		if strings.IndexByte("acdoux", t.kind) < 0 {
			return nil, fmt.Errorf("invalid type string '%c'", t.kind)
		}
		if t.kind != 'a' && t.kind != 'c' {
			t.size = 4
			if t.kind != 'x' && t.kind != 'o' && t.kind != 'd' && t.kind != 'u' {
				t.size = 1
			}
			switch {
			case s != "" && s[0] >= '0' && s[0] <= '9':
				n, rest := leadingDigits(s)
				s = rest
				if n != 1 && n != 2 && n != 4 && n != 8 {
					return nil, fmt.Errorf("invalid type string '%d'", n)
				}
				t.size = n
			case s != "" && strings.IndexByte("CSIL", s[0]) >= 0:
				t.size = map[byte]int{'C': 1, 'S': 2, 'I': 4, 'L': 8}[s[0]]
				s = s[1:]
			}
		}
		if s != "" && s[0] == 'z' {
			t.text, s = true, s[1:]
		}
		out = append(out, t)
	}
	return out, nil
}

func leadingDigits(s string) (int, string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, _ := strconv.Atoi(s[:i])
	return n, s[i:]
}

// parseSize reads a byte count with an optional K/M/G (1024) or KB/MB
// (1000) suffix, or a 0x hex prefix.
func parseSize(s string) (int64, error) {
	mult := int64(1)
	for _, suf := range []struct {
		s string
		m int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"kB", 1000}, {"KB", 1000}, {"MB", 1e6}, {"GB", 1e9}, {"K", 1 << 10}, {"k", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"b", 512}} {
		if strings.HasSuffix(s, suf.s) && len(s) > len(suf.s) {
			s, mult = strings.TrimSuffix(s, suf.s), suf.m
			break
		}
	}
	n, err := strconv.ParseInt(s, 0, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("invalid number '%s'", s)
	}
	return n * mult, nil
}

func od(c *cmd, args []string) int {
	o, err := flagSpec{short: "A:t:N:j:w:vcxobdi", permute: true, long: map[string]string{
		"address-radix=": "A", "format=": "t", "read-bytes=": "N", "skip-bytes=": "j", "width=": "w", "output-duplicates": "v",
	}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	var types []odType
	for _, v := range o.vals["t"] {
		t, err := parseODType(v)
		if err != nil {
			return c.fail("%v", err)
		}
		types = append(types, t...)
	}
	for _, f := range []struct{ flag, t string }{{"c", "c"}, {"x", "x2"}, {"o", "o2"}, {"b", "o1"}, {"d", "u2"}, {"i", "d4"}} {
		if o.has(f.flag) {
			t, _ := parseODType(f.t)
			types = append(types, t...)
		}
	}
	if len(types) == 0 {
		types, _ = parseODType("o2")
	}
	radix := "o"
	if o.has("A") {
		radix = o.val("A")
	}
	if strings.IndexByte("doxn", radix[0]) < 0 || len(radix) != 1 {
		return c.fail("invalid output address radix '%s'; it must be one character from [doxn]", radix)
	}
	width := 16
	if o.has("w") {
		if width, err = strconv.Atoi(o.val("w")); err != nil || width < 1 {
			return c.fail("invalid -w argument '%s'", o.val("w"))
		}
	}
	data, st := c.readInputBytes(o.args)
	data, skip, err := window(data, o, "j", "N")
	if err != nil {
		return c.fail("%v", err)
	}
	w := c.bufOut()
	defer w.Flush()
	odDump(w, data, skip, types, radix[0], width, o.has("v"))
	return st
}

// window cuts data to what the skip and limit flags (byte counts with
// parseSize's suffixes) select, returning the offset it starts at.
func window(data []byte, o *opts, skipFlag, limitFlag string) ([]byte, int64, error) {
	var skip int64
	var err error
	if v := o.val(skipFlag); v != "" {
		if skip, err = parseSize(v); err != nil {
			return nil, 0, err
		}
	}
	data = data[min(int64(len(data)), skip):]
	if v := o.val(limitFlag); v != "" {
		limit, err := parseSize(v)
		if err != nil {
			return nil, 0, err
		}
		data = data[:min(int64(len(data)), limit)]
	}
	return data, skip, nil
}

// readInputBytes reads all the inputs (stdin when none) into memory.
func (c *cmd) readInputBytes(names []string) ([]byte, int) {
	var b bytes.Buffer
	st := c.forEachInput(names, func(_ string, r io.Reader) error {
		_, err := io.Copy(&b, r)
		return err
	})
	return b.Bytes(), st
}

func odDump(w *bufio.Writer, data []byte, base int64, types []odType, radix byte, width int, all bool) {
	perByte := 0 // column width per byte when several types share a line
	for _, t := range types {
		perByte = max(perByte, (t.width()+t.size-1)/t.size)
	}
	addr := func(n int64) string {
		switch radix {
		case 'd':
			return fmt.Sprintf("%07d", n)
		case 'x':
			return fmt.Sprintf("%06x", n)
		case 'n':
			return ""
		}
		return fmt.Sprintf("%07o", n)
	}
	var prev []byte
	starred := false
	for off := 0; off < len(data); off += width {
		line := data[off:min(off+width, len(data))]
		if !all && prev != nil && len(line) == width && bytes.Equal(line, prev) {
			if !starred {
				w.WriteString("*\n")
				starred = true
			}
			continue
		}
		prev, starred = line, false
		for i, t := range types {
			if i == 0 {
				w.WriteString(addr(base + int64(off)))
			} else {
				w.WriteString(strings.Repeat(" ", len(addr(0))))
			}
			fw := t.width()
			if len(types) > 1 {
				fw = perByte * t.size
			}
			padded := append(append([]byte(nil), line...), make([]byte, t.size)...)
			n := 0
			for j := 0; j < len(line); j += t.size {
				s := t.format(padded[j : j+t.size])
				w.WriteString(strings.Repeat(" ", max(fw-len(s), 1)) + s)
				n++
			}
			if t.text {
				full := (width + t.size - 1) / t.size
				w.WriteString(strings.Repeat(" ", (full-n)*fw))
				w.WriteString("  >" + printable(line) + "<")
			}
			w.WriteByte('\n')
		}
	}
	if radix != 'n' {
		w.WriteString(addr(base+int64(len(data))) + "\n")
	}
}

// printable shows bytes as text with a dot for anything not printable.
func printable(b []byte) string {
	out := make([]byte, len(b))
	for i, ch := range b {
		if ch >= 32 && ch < 127 {
			out[i] = ch
		} else {
			out[i] = '.'
		}
	}
	return string(out)
}

func xxd(c *cmd, args []string) int {
	o, err := flagSpec{short: "pl:s:c:g:urie", permute: true, long: map[string]string{"ps": "p", "plain": "p"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	if len(o.args) > 2 {
		return c.usage(fmt.Errorf("too many arguments"))
	}
	var data []byte
	st := 0
	if len(o.args) > 0 {
		data, st = c.readInputBytes(o.args[:1])
	} else {
		data, st = c.readInputBytes(nil)
	}
	if st != 0 {
		return 2
	}
	out := c.bufOut()
	if len(o.args) == 2 {
		f, err := openWrite(c.path(o.args[1]), false)
		if err != nil {
			return c.fail("%s: %s", o.args[1], errText(err))
		}
		defer f.Close()
		out = bufio.NewWriter(f)
	}
	defer out.Flush()
	if o.has("r") {
		return c.xxdReverse(out, data, o.has("p"))
	}
	data, skip, err := window(data, o, "s", "l")
	if err != nil {
		return c.fail("%v", err)
	}
	cols, group := 16, 2
	if o.has("p") {
		cols = 30
	}
	if o.has("i") {
		return c.xxdInclude(out, data, o.args)
	}
	if v := o.val("c"); v != "" {
		if cols, err = strconv.Atoi(v); err != nil || cols < 1 || cols > 256 {
			return c.fail("invalid number of columns (max. 256)")
		}
	}
	if v := o.val("g"); v != "" {
		if group, err = strconv.Atoi(v); err != nil || group < 0 {
			return c.fail("invalid group size")
		}
	}
	if group == 0 {
		group = cols
	}
	hexOf := func(b []byte) string {
		h := hex.EncodeToString(b)
		if o.has("u") {
			h = strings.ToUpper(h)
		}
		return h
	}
	if o.has("p") {
		for off := 0; off < len(data); off += cols {
			out.WriteString(hexOf(data[off:min(off+cols, len(data))]) + "\n")
		}
		return 0
	}
	groups := (cols + group - 1) / group
	hexWidth := 2*cols + groups - 1
	for off := 0; off < len(data); off += cols {
		line := data[off:min(off+cols, len(data))]
		var h strings.Builder
		for g := 0; g < len(line); g += group {
			if g > 0 {
				h.WriteByte(' ')
			}
			h.WriteString(hexOf(line[g:min(g+group, len(line))]))
		}
		hs := h.String()
		fmt.Fprintf(out, "%08x: %s%s  %s\n", skip+int64(off), hs, strings.Repeat(" ", hexWidth-len(hs)), printable(line))
	}
	return 0
}

func (c *cmd) xxdInclude(out *bufio.Writer, data []byte, names []string) int {
	name := ""
	if len(names) > 0 {
		name = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, names[0])
		fmt.Fprintf(out, "unsigned char %s[] = {\n", name)
	}
	for off := 0; off < len(data); off += 12 {
		line := data[off:min(off+12, len(data))]
		parts := make([]string, len(line))
		for i, b := range line {
			parts[i] = fmt.Sprintf("0x%02x", b)
		}
		sep := ","
		if off+12 >= len(data) {
			sep = ""
		}
		out.WriteString("  " + strings.Join(parts, ", ") + sep + "\n")
	}
	if name != "" {
		fmt.Fprintf(out, "};\nunsigned int %s_len = %d;\n", name, len(data))
	}
	return 0
}

// xxdReverse turns a hex dump (plain with -p) back into bytes.
func (c *cmd) xxdReverse(out *bufio.Writer, data []byte, plain bool) int {
	for _, line := range strings.Split(string(data), "\n") {
		if !plain {
			_, rest, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			if i := strings.Index(rest, "  "); i >= 0 {
				rest = rest[:i]
			}
			line = rest
		}
		digits := strings.Map(func(r rune) rune {
			if strings.ContainsRune("0123456789abcdefABCDEF", r) {
				return r
			}
			return -1
		}, line)
		if len(digits)%2 == 1 {
			digits = digits[:len(digits)-1]
		}
		b, _ := hex.DecodeString(digits)
		out.Write(b)
	}
	return 0
}

// cmpCmd compares two files byte by byte: status 0 same, 1 different, 2
// trouble.
func cmpCmd(c *cmd, args []string) int {
	o, err := flagSpec{short: "slbn:i:", permute: true, long: map[string]string{"silent": "s", "quiet": "s", "verbose": "l", "bytes=": "n", "print-bytes": "b"}}.parse(args)
	if err != nil {
		c.usage(err)
		return 2
	}
	if len(o.args) == 1 {
		o.args = append(o.args, "-")
	}
	if len(o.args) != 2 {
		c.fail("missing operand")
		return 2
	}
	var files [2][]byte
	for i, n := range o.args {
		d, st := c.readInputBytes([]string{n})
		if st != 0 {
			return 2
		}
		files[i] = d
	}
	a, b := files[0], files[1]
	if v := o.val("n"); v != "" {
		n, err := parseSize(v)
		if err != nil {
			c.fail("%v", err)
			return 2
		}
		a, b = a[:min(int64(len(a)), n)], b[:min(int64(len(b)), n)]
	}
	w := c.bufOut()
	defer w.Flush()
	line, status := 1, 0
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != b[i] {
			status = 1
			switch {
			case o.has("s"):
				return 1
			case o.has("l"):
				fmt.Fprintf(w, "%d %3o %3o\n", i+1, a[i], b[i])
				continue
			}
			fmt.Fprintf(w, "%s %s differ: char %d, line %d\n", o.args[0], o.args[1], i+1, line)
			return 1
		}
		if a[i] == '\n' {
			line++
		}
	}
	if len(a) != len(b) {
		if !o.has("s") {
			short, n := o.args[0], len(a)
			if len(b) < len(a) {
				short, n = o.args[1], len(b)
			}
			w.Flush()
			if o.has("l") {
				fmt.Fprintf(c.stderr, "cmp: EOF on %s after byte %d\n", short, n)
			} else {
				fmt.Fprintf(c.stderr, "cmp: EOF on %s after byte %d, in line %d\n", short, n, line)
			}
		}
		return 1
	}
	return status
}
