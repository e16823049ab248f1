package shell

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
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
	o, err := flagSpec{short: "n", permute: true}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	n := 0
	return c.forEachInput(o.args, func(_ string, r io.Reader) error {
		if !o.has("n") {
			_, err := io.Copy(c.stdout, r)
			return err
		}
		return eachLine(r, func(line string, _ bool) error {
			n++
			_, err := fmt.Fprintf(c.stdout, "%6d\t%s\n", n, line)
			return err
		})
	})
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

func head(c *cmd, args []string) int {
	o, err := flagSpec{short: "n:c:qv", numeric: "n", permute: true}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	n, _, ok := countArg(c, o, 10)
	if !ok {
		return 1
	}
	multi := len(o.args) > 1
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
		br := bufio.NewReader(r)
		lines := []string{}
		for i := 0; n < 0 || i < n; i++ {
			line, err := br.ReadString('\n')
			if line != "" {
				lines = append(lines, line)
			}
			if err != nil {
				break
			}
		}
		if n < 0 { // GNU: all but the last -n lines
			k := max(len(lines)+n, 0)
			lines = lines[:k]
		}
		_, err := io.WriteString(c.stdout, strings.Join(lines, ""))
		return err
	})
}

func tail(c *cmd, args []string) int {
	o, err := flagSpec{short: "n:c:qvf", numeric: "n", permute: true}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	n, fromStart, ok := countArg(c, o, 10)
	if !ok {
		return 1
	}
	multi := len(o.args) > 1
	first := true
	return c.forEachInput(o.args, func(name string, r io.Reader) error {
		if multi {
			if !first {
				fmt.Fprintln(c.stdout)
			}
			fmt.Fprintf(c.stdout, "==> %s <==\n", name)
		}
		first = false
		data, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		if v := o.val("c"); v != "" {
			k, _ := strconv.Atoi(v)
			k = min(k, len(data))
			_, err := c.stdout.Write(data[len(data)-k:])
			return err
		}
		lines := strings.SplitAfter(string(data), "\n")
		if len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		var sel []string
		if fromStart {
			sel = lines[min(max(n-1, 0), len(lines)):]
		} else {
			sel = lines[max(len(lines)-n, 0):]
		}
		_, err = io.WriteString(c.stdout, strings.Join(sel, ""))
		return err
	})
}

func wc(c *cmd, args []string) int {
	o, err := flagSpec{short: "lwcm", permute: true, long: map[string]string{"lines": "l", "words": "w", "bytes": "c", "chars": "m"}}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	show := []string{}
	for _, f := range []string{"l", "w", "m", "c"} {
		if o.has(f) {
			show = append(show, f)
		}
	}
	if len(show) == 0 {
		show = []string{"l", "w", "c"}
	}
	type counts map[string]int
	var rows []counts
	var names []string
	total := counts{}
	st := c.forEachInput(o.args, func(name string, r io.Reader) error {
		data, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		k := counts{
			"l": bytes.Count(data, []byte("\n")),
			"w": len(strings.Fields(string(data))),
			"c": len(data),
			"m": len([]rune(string(data))),
		}
		for key, v := range k {
			total[key] += v
		}
		rows = append(rows, k)
		names = append(names, name)
		return nil
	})
	if len(o.args) > 1 {
		rows = append(rows, total)
		names = append(names, "total")
	}
	width := 1
	if len(show) > 1 || len(rows) > 1 {
		for _, r := range rows {
			for _, f := range show {
				width = max(width, len(strconv.Itoa(r[f])))
			}
		}
	}
	for i, r := range rows {
		parts := make([]string, 0, len(show)+1)
		for _, f := range show {
			parts = append(parts, fmt.Sprintf("%*d", width, r[f]))
		}
		if len(o.args) > 0 {
			parts = append(parts, names[i])
		}
		fmt.Fprintln(c.stdout, strings.Join(parts, " "))
	}
	return st
}

func tee(c *cmd, args []string) int {
	o, err := flagSpec{short: "a", permute: true}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	writers := []io.Writer{c.stdout}
	status := 0
	for _, n := range o.args {
		f, err := openWrite(c.path(n), o.has("a"))
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

func seq(c *cmd, args []string) int {
	o, err := flagSpec{short: "s:w"}.parse(args)
	if err != nil {
		return c.usage(err)
	}
	nums := make([]int, 0, 3)
	for _, a := range o.args {
		n, err := strconv.Atoi(a)
		if err != nil {
			return c.fail("invalid argument: '%s'", a)
		}
		nums = append(nums, n)
	}
	first, step, last := 1, 1, 0
	switch len(nums) {
	case 1:
		last = nums[0]
	case 2:
		first, last = nums[0], nums[1]
	case 3:
		first, step, last = nums[0], nums[1], nums[2]
	default:
		return c.fail("missing operand")
	}
	if step == 0 {
		return c.fail("invalid Zero increment value: '0'")
	}
	sep := "\n"
	if o.has("s") {
		sep = o.val("s")
	}
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	started := false
	for i := first; (step > 0 && i <= last) || (step < 0 && i >= last); i += step {
		if started {
			w.WriteString(sep)
		}
		started = true
		w.WriteString(strconv.Itoa(i))
		if c.ctx.Err() != nil {
			return 1
		}
	}
	if started {
		w.WriteString("\n")
	}
	return 0
}
