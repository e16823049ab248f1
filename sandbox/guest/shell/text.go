package shell

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

var textCommands = map[string]builtinFunc{
	"cat":    cat,
	"head":   head,
	"tail":   tail,
	"wc":     wc,
	"tee":    tee,
	"base64": base64Cmd,
	"seq":    seq,
}

func cat(c *cmd, args []string) int {
	o, err := flagSpec{short: "nbsvETAet", permute: true, long: map[string]string{
		"number": "n", "number-nonblank": "b", "squeeze-blank": "s", "show-nonprinting": "v",
		"show-ends": "E", "show-tabs": "T", "show-all": "A",
	}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	ends := o.has("E") || o.has("A") || o.has("e")
	tabs := o.has("T") || o.has("A") || o.has("t")
	nonprint := o.has("v") || o.has("A") || o.has("e") || o.has("t")
	plain := !ends && !tabs && !nonprint && !o.has("n") && !o.has("b") && !o.has("s")
	n, prevBlank := 0, false
	return c.forEachInput(o.args, func(_ string, r io.Reader) error {
		if plain {
			_, err := io.Copy(c.stdout, r)
			return err
		}
		w := c.bufOut()
		defer w.Flush()
		return eachLine(r, func(line string, noEOL bool) error {
			blank := line == ""
			if o.has("s") && blank && prevBlank {
				return nil
			}
			prevBlank = blank
			if o.has("b") && !blank || o.has("n") && !o.has("b") {
				n++
				fmt.Fprintf(w, "%6d\t", n)
			}
			if nonprint || tabs {
				line = showNonprinting(line, nonprint, tabs)
			}
			w.WriteString(line)
			if ends && !noEOL {
				w.WriteByte('$')
			}
			if !noEOL {
				w.WriteByte('\n')
			}
			return nil
		})
	})
}

// showNonprinting renders control and high bytes as cat -v does (^X,
// M-x), and tabs as ^I when asked.
func showNonprinting(s string, nonprint, tabs bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\t' && !tabs:
			b.WriteByte(ch)
		case ch == '\t':
			b.WriteString("^I")
		case !nonprint:
			b.WriteByte(ch)
		case ch >= 128:
			b.WriteString("M-")
			ch -= 128
			fallthrough
		default:
			switch {
			case ch < 32:
				b.WriteByte('^')
				b.WriteByte(ch + 64)
			case ch == 127:
				b.WriteString("^?")
			default:
				b.WriteByte(ch)
			}
		}
	}
	return b.String()
}

// eachLine calls f with every line of r without its newline; last reports
// whether the final line lacked a trailing newline.
func eachLine(r io.Reader, f func(line string, noEOL bool) error) error {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			noEOL := !strings.HasSuffix(line, "\n")
			if ferr := f(strings.TrimSuffix(line, "\n"), noEOL); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLines reads all lines of all inputs (stdin when none).
func (c *cmd) readLines(names []string) ([]string, int) {
	var lines []string
	st := c.forEachInput(names, func(_ string, r io.Reader) error {
		return eachLine(r, func(l string, _ bool) error {
			lines = append(lines, l)
			return nil
		})
	})
	return lines, st
}

func countArg(c *cmd, o *opts, def int) (n int, fromStart bool, ok bool) {
	v := o.val("n")
	if v == "" {
		return def, false, true
	}
	fromStart = strings.HasPrefix(v, "+")
	n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
	if err != nil {
		c.fail("invalid number of lines: '%s'", v)
		return 0, false, false
	}
	return n, fromStart, true
}

// headLong are the long options head and tail share.
var headLong = map[string]string{"lines=": "n", "bytes=": "c", "quiet": "q", "silent": "q", "verbose": "v", "follow": "f"}

func head(c *cmd, args []string) int {
	o, err := flagSpec{short: "n:c:qv", numeric: "n", permute: true, long: headLong}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	n, _, ok := countArg(c, o, 10)
	if !ok {
		return 1
	}
	multi := (len(o.args) > 1 || o.has("v")) && !o.has("q")
	first := true
	return c.forEachInput(o.args, func(name string, r io.Reader) error {
		if multi {
			if !first {
				fmt.Fprintln(c.stdout)
			}
			fmt.Fprintf(c.stdout, "==> %s <==\n", name)
		}
		first = false
		if v := o.val("c"); v != "" {
			k, _ := strconv.Atoi(v)
			_, err := io.CopyN(c.stdout, r, int64(k))
			if err == io.EOF {
				err = nil
			}
			return err
		}
		if name == "-" {
			r = c.stdin // not wrapped, so that a file's Seek is seen
		}
		return headLines(c.stdout, r, n)
	})
}

// headLines copies the first n lines of r to w, or all but the last -n
// when n is negative (keeping only those -n in a ring). On a seekable
// input it seeks back over what it read past its last line, as GNU head
// does, so `{ head -n 1; cat; } < file` and a `$(head -n 1)` in a
// while-read loop leave the rest for the next reader.
func headLines(w io.Writer, r io.Reader, n int) error {
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriterSize(w, 32<<10)
	var err error
	if n >= 0 {
		for i := 0; i < n && err == nil; i++ {
			line, rerr := br.ReadSlice('\n')
			for rerr == bufio.ErrBufferFull {
				bw.Write(line)
				line, rerr = br.ReadSlice('\n')
			}
			if _, werr := bw.Write(line); werr != nil {
				err = werr // the reader went away
			}
			if rerr != nil {
				if rerr != io.EOF {
					err = rerr
				}
				break
			}
		}
		if s, ok := r.(io.Seeker); ok && br.Buffered() > 0 {
			s.Seek(-int64(br.Buffered()), io.SeekCurrent) // a pipe cannot, and need not
		}
	} else {
		ring := make([]string, -n)
		held := 0
		for i := 0; ; i++ {
			line, rerr := br.ReadString('\n')
			if line != "" {
				if held == len(ring) {
					io.WriteString(bw, ring[i%len(ring)])
				} else {
					held++
				}
				ring[i%len(ring)] = line
			}
			if rerr != nil {
				if rerr != io.EOF {
					err = rerr
				}
				break
			}
		}
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// wcWidth is the column width GNU wc uses: wide enough for the total
// size of the regular files, at least 7 when an input is not a regular
// file (a pipe), and 1 for a single count of a single input.
func (c *cmd) wcWidth(names []string, counts int) int {
	if len(names) <= 1 && counts == 1 {
		return 1
	}
	if len(names) == 0 {
		names = []string{"-"}
	}
	minimum, total := 1, int64(0)
	for _, n := range names {
		var fi os.FileInfo
		var err error
		if n == "-" {
			f, ok := c.stdin.(*os.File)
			if !ok {
				minimum = 7
				continue
			}
			fi, err = f.Stat()
		} else {
			fi, err = os.Stat(c.path(n))
		}
		switch {
		case err != nil:
		case fi.Mode().IsRegular():
			total += fi.Size()
		default:
			minimum = 7
		}
	}
	return max(len(strconv.FormatInt(total, 10)), minimum)
}

func tee(c *cmd, args []string) int {
	o, err := flagSpec{short: "a", permute: true}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	writers := []io.Writer{c.stdout}
	status := 0
	flag := os.O_TRUNC
	if o.has("a") {
		flag = os.O_APPEND
	}
	for _, n := range o.args {
		f, err := c.openWrite(n, flag)
		if err != nil {
			status = c.fail("%s: %s", n, errText(err))
			continue
		}
		defer f.Close()
		writers = append(writers, f)
	}
	if _, err := io.Copy(io.MultiWriter(writers...), c.stdin); err != nil {
		return c.fail("%v", err)
	}
	return status
}

func base64Cmd(c *cmd, args []string) int {
	o, err := flagSpec{short: "dw:i", long: map[string]string{"decode": "d", "wrap=": "w"}, permute: true}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	return c.forEachInput(o.args, func(_ string, r io.Reader) error {
		data, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		if o.has("d") {
			clean := strings.Join(strings.Fields(string(data)), "")
			out, err := base64.StdEncoding.DecodeString(clean)
			if err != nil {
				return fmt.Errorf("invalid input")
			}
			_, err = c.stdout.Write(out)
			return err
		}
		enc := base64.StdEncoding.EncodeToString(data)
		wrap := 76
		if v := o.val("w"); v != "" {
			wrap, _ = strconv.Atoi(v)
		}
		for wrap > 0 && len(enc) > wrap {
			fmt.Fprintln(c.stdout, enc[:wrap])
			enc = enc[wrap:]
		}
		if enc != "" {
			fmt.Fprintln(c.stdout, enc)
		}
		return nil
	})
}

func isInt(x float64) bool { return x == math.Trunc(x) }

// seqInts is seq's short cut for whole numbers without a format, the
// usual case (seq 8000000): formatting a float per number cost most of
// its time in the guest.
func seqInts(c *cmd, w *bufio.Writer, first, step int64, last float64, sep string, width int) int {
	var buf []byte
	for i, x := 0, first; step > 0 && float64(x) <= last || step < 0 && float64(x) >= last; i, x = i+1, x+step {
		buf = buf[:0]
		if i > 0 {
			buf = append(buf, sep...)
		}
		if width > 0 {
			digits := strconv.AppendInt(nil, x, 10)
			if x < 0 {
				buf = append(buf, '-')
				digits = digits[1:]
			}
			for pad := width - len(digits) - boolInt(x < 0); pad > 0; pad-- {
				buf = append(buf, '0')
			}
			buf = append(buf, digits...)
		} else {
			buf = strconv.AppendInt(buf, x, 10)
		}
		if _, err := w.Write(buf); err != nil {
			return 141 // the reader went away, as SIGPIPE would end seq
		}
		if i%4096 == 0 && c.ctx.Err() != nil {
			return 1
		}
		if i == 0 {
			defer w.WriteString("\n")
		}
	}
	return 0
}

func seq(c *cmd, args []string) int {
	// A negative number is an operand, not a flag.
	var flagArgs, nums []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-w" || a == "--equal-width":
			flagArgs = append(flagArgs, "-w")
		case (a == "-s" || a == "-f") && i+1 < len(args):
			flagArgs = append(flagArgs, a, args[i+1])
			i++
		case strings.HasPrefix(a, "-s") && len(a) > 2, strings.HasPrefix(a, "-f") && len(a) > 2:
			flagArgs = append(flagArgs, a[:2], a[2:])
		case strings.HasPrefix(a, "--separator="), strings.HasPrefix(a, "--format="):
			k, v, _ := strings.Cut(a, "=")
			flagArgs = append(flagArgs, map[string]string{"--separator": "-s", "--format": "-f"}[k], v)
		default:
			nums = append(nums, a)
		}
	}
	o, err := flagSpec{short: "s:wf:"}.parse(flagArgs)
	if err != nil {
		return c.usage(err)
	}
	vals := make([]float64, 0, 3)
	prec := 0
	for _, a := range nums {
		f, err := strconv.ParseFloat(a, 64)
		if err != nil {
			return c.fail("invalid floating point argument: '%s'", a)
		}
		if _, frac, ok := strings.Cut(a, "."); ok && !strings.ContainsAny(a, "eE") {
			prec = max(prec, len(frac))
		}
		vals = append(vals, f)
	}
	first, step, last := 1.0, 1.0, 0.0
	switch len(vals) {
	case 1:
		last = vals[0]
	case 2:
		first, last = vals[0], vals[1]
	case 3:
		first, step, last = vals[0], vals[1], vals[2]
	case 0:
		return c.usage(fmt.Errorf("missing operand"))
	default:
		return c.usage(fmt.Errorf("extra operand '%s'", nums[3]))
	}
	if step == 0 {
		return c.fail("invalid Zero increment value: '%s'", nums[1])
	}
	sep := "\n"
	if o.has("s") {
		sep = o.val("s")
	}
	format := func(x float64) string { return strconv.FormatFloat(x, 'f', prec, 64) }
	if f := o.val("f"); f != "" {
		format = func(x float64) string { return fmt.Sprintf(f, x) }
	}
	width := 0
	if o.has("w") {
		width = max(len(format(first)), len(format(last)))
	}
	w := bufio.NewWriterSize(c.stdout, 64<<10)
	defer w.Flush()
	if isInt(first) && isInt(step) && prec == 0 && !o.has("f") && math.Abs(first)+math.Abs(last)+math.Abs(step) < 1<<52 {
		return seqInts(c, w, int64(first), int64(step), last, sep, width)
	}
	started := false
	for i := 0; ; i++ {
		x := first + float64(i)*step
		if step > 0 && x > last+1e-9*step || step < 0 && x < last+1e-9*step {
			break
		}
		if i > 0 {
			w.WriteString(sep)
		}
		s := format(x)
		if len(s) < width {
			if s[0] == '-' {
				s = "-" + strings.Repeat("0", width-len(s)) + s[1:]
			} else {
				s = strings.Repeat("0", width-len(s)) + s
			}
		}
		if _, err := w.WriteString(s); err != nil {
			return 141 // the reader went away, as SIGPIPE would end seq
		}
		if c.ctx.Err() != nil {
			return 1
		}
		started = true
	}
	if started {
		w.WriteString("\n")
	}
	return 0
}
