package shell

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ptc-dev/ptc/internal/textdiff"
)

// noEOL marks, inside the diff, a last line that had no newline: such a
// line differs from the same text with one, and prints with GNU's
// "\ No newline at end of file" after it.
const noEOL = "\x00no-eol"

func splitText(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if !strings.HasSuffix(s, "\n") {
		lines[len(lines)-1] += noEOL
	}
	return lines
}

// writeDiffLine prints one line with its prefix ("< ", "-", " "...).
func writeDiffLine(w io.Writer, prefix, line string) {
	if text, ok := strings.CutSuffix(line, noEOL); ok {
		fmt.Fprintf(w, "%s%s\n\\ No newline at end of file\n", prefix, text)
		return
	}
	fmt.Fprintf(w, "%s%s\n", prefix, line)
}

// normalRange prints the 1-based lines from+1..to as diff does: "n" or
// "n,m"; an empty range (to == from) is numbered by the line before it.
func normalRange(from, to int) string {
	if to <= from+1 {
		return fmt.Sprint(max(to, from))
	}
	return fmt.Sprintf("%d,%d", from+1, to)
}

// normal renders the default (ed-like) diff format: each run of adjacent
// changes (a hunk without context) as a command and its lines.
func normal(w io.Writer, ops []textdiff.Op) {
	for _, h := range textdiff.Unified(ops, 0) {
		a0, a1 := h.OldStart-1, h.OldStart-1+h.OldLines
		b0, b1 := h.NewStart-1, h.NewStart-1+h.NewLines
		switch {
		case h.NewLines == 0:
			fmt.Fprintf(w, "%sd%d\n", normalRange(a0, a1), b0)
		case h.OldLines == 0:
			fmt.Fprintf(w, "%da%s\n", a0, normalRange(b0, b1))
		default:
			fmt.Fprintf(w, "%sc%s\n", normalRange(a0, a1), normalRange(b0, b1))
		}
		for _, o := range h.Ops {
			if o.Kind == textdiff.Delete {
				writeDiffLine(w, "< ", o.Text)
			}
		}
		if h.OldLines > 0 && h.NewLines > 0 {
			fmt.Fprintln(w, "---")
		}
		for _, o := range h.Ops {
			if o.Kind == textdiff.Insert {
				writeDiffLine(w, "> ", o.Text)
			}
		}
	}
}

// unified renders ops as unified-diff hunks with ctx lines of context.
func unified(w io.Writer, ops []textdiff.Op, ctx int) {
	for _, h := range textdiff.Unified(ops, ctx) {
		fmt.Fprintln(w, h.Header())
		for _, o := range h.Ops {
			writeDiffLine(w, string(o.Kind), o.Text)
		}
	}
}

// diffRun holds one diff invocation's options.
type diffRun struct {
	c       *cmd
	o       *opts
	flags   string // the options as typed, for diff -r's per-file headers
	ctx     int
	changed bool
}

func diff(c *cmd, args []string) int {
	o, err := flagSpec{short: "uqNaU:rbwiBs", permute: true, long: map[string]string{
		"brief": "q", "unified": "u", "recursive": "r", "new-file": "N", "text": "a", "ignore-all-space": "w",
		"ignore-space-change": "b", "ignore-case": "i", "ignore-blank-lines": "B", "report-identical-files": "s",
		"color": "color", // accepted and ignored: the output is never a terminal
	}}.parse(args)
	if err != nil {
		c.usage(err)
		return 2
	}
	if len(o.args) != 2 {
		c.fail("missing operand after '%s'", strings.Join(o.args, " "))
		return 2
	}
	var flags []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") && a != "-" {
			flags = append(flags, a)
		}
	}
	d := &diffRun{c: c, o: o, flags: strings.Join(flags, " "), ctx: 3}
	if v := o.val("U"); v != "" {
		fmt.Sscan(v, &d.ctx)
	}
	st := d.paths(o.args[0], o.args[1], true)
	if st == 0 && d.changed {
		return 1
	}
	return st
}

// paths compares two operands: files, or directories with -r.
func (d *diffRun) paths(a, b string, top bool) int {
	c := d.c
	ia, errA := os.Stat(c.path(a))
	ib, errB := os.Stat(c.path(b))
	if isStream(c, a) {
		ia, errA = nil, nil
	}
	if isStream(c, b) {
		ib, errB = nil, nil
	}
	if top && errA == nil && errB == nil && ia != nil && ib != nil && ia.IsDir() != ib.IsDir() {
		if ia.IsDir() {
			a = filepath.Join(a, filepath.Base(b))
		} else {
			b = filepath.Join(b, filepath.Base(a))
		}
		return d.paths(a, b, false)
	}
	for _, e := range []struct {
		err  error
		name string
	}{{errA, a}, {errB, b}} {
		if e.err != nil && !(d.o.has("N") && os.IsNotExist(e.err)) {
			c.fail("%s: %s", e.name, errText(e.err))
			return 2
		}
	}
	if ia != nil && ib != nil && ia.IsDir() && ib.IsDir() {
		if !d.o.has("r") && !top {
			fmt.Fprintf(c.stdout, "Common subdirectories: %s and %s\n", a, b)
			return 0
		}
		return d.dirs(a, b)
	}
	return d.files(a, b, !top)
}

// dirs compares two directories entry by entry, in name order.
func (d *diffRun) dirs(a, b string) int {
	c := d.c
	names := map[string]int{}
	for i, dir := range []string{a, b} {
		entries, err := os.ReadDir(c.path(dir))
		if err != nil {
			c.fail("%s: %s", dir, errText(err))
			return 2
		}
		for _, e := range entries {
			names[e.Name()] |= 1 << i
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	status := 0
	for _, n := range sorted {
		pa, pb := filepath.Join(a, n), filepath.Join(b, n)
		switch names[n] {
		case 1, 2:
			if d.o.has("N") {
				status = max(status, d.paths(pa, pb, false))
				continue
			}
			dir := a
			if names[n] == 2 {
				dir = b
			}
			fmt.Fprintf(c.stdout, "Only in %s: %s\n", dir, n)
			d.changed = true
			continue
		}
		ia, _ := os.Stat(c.path(pa))
		ib, _ := os.Stat(c.path(pb))
		if ia != nil && ib != nil && ia.IsDir() != ib.IsDir() {
			kind := func(fi os.FileInfo) string {
				if fi.IsDir() {
					return "directory"
				}
				return "regular file"
			}
			fmt.Fprintf(c.stdout, "File %s is a %s while file %s is a %s\n", pa, kind(ia), pb, kind(ib))
			d.changed = true
			continue
		}
		status = max(status, d.paths(pa, pb, false))
	}
	return status
}

// isStream reports whether an operand names a stream rather than a file:
// "-", /dev/stdin or a descriptor such as the /dev/fd/63 that <(cmd)
// expands to, or a served device (devices.go). Such operands are read
// through cmd.open, never stat'ed.
func isStream(c *cmd, name string) bool {
	p := c.path(name)
	return name == "-" || p == "/dev/stdin" || strings.HasPrefix(p, "/dev/fd/") || isDevice(p)
}

// read returns a file's text ("" for a missing one under -N) and the
// time shown in a unified header.
func (d *diffRun) read(name string) (string, time.Time, int) {
	var b strings.Builder
	when := time.Now()
	if fi, err := os.Stat(d.c.path(name)); err == nil {
		when = fi.ModTime()
	} else if name != "-" && d.o.has("N") && os.IsNotExist(err) {
		return "", time.Unix(0, 0), 0
	}
	if st := d.c.forEachInput([]string{name}, func(_ string, r io.Reader) error {
		_, err := io.Copy(&b, r)
		return err
	}); st != 0 {
		return "", when, 2
	}
	return b.String(), when, 0
}

// files compares two files; inTree says they were found by -r, which
// prints a "diff FLAGS a b" line before their differences.
func (d *diffRun) files(a, b string, inTree bool) int {
	c := d.c
	ta, wa, st := d.read(a)
	if st != 0 {
		return st
	}
	tb, wb, st := d.read(b)
	if st != 0 {
		return st
	}
	la, lb := splitText(ta), splitText(tb)
	key := d.normalizer()
	same := ta == tb
	if !same && key != nil {
		same = equalBy(la, lb, key)
	}
	if same {
		if d.o.has("s") {
			fmt.Fprintf(c.stdout, "Files %s and %s are identical\n", a, b)
		}
		return 0
	}
	d.changed = true
	if d.o.has("q") {
		fmt.Fprintf(c.stdout, "Files %s and %s differ\n", a, b)
		return 0
	}
	if !d.o.has("a") && (bytes.IndexByte([]byte(ta[:min(len(ta), 8000)]), 0) >= 0 || bytes.IndexByte([]byte(tb[:min(len(tb), 8000)]), 0) >= 0) {
		fmt.Fprintf(c.stdout, "Binary files %s and %s differ\n", a, b)
		return 0
	}
	if inTree {
		fmt.Fprintf(c.stdout, "diff %s %s %s\n", d.flags, a, b)
	}
	ops := editsBy(la, lb, key)
	if d.o.has("u") || d.o.has("U") {
		const layout = "2006-01-02 15:04:05.000000000 -0700"
		fmt.Fprintf(c.stdout, "--- %s\t%s\n+++ %s\t%s\n", a, wa.Format(layout), b, wb.Format(layout))
		unified(c.stdout, ops, d.ctx)
		return 0
	}
	normal(c.stdout, ops)
	return 0
}

// normalizer returns how -w, -b and -i fold a line before comparing, or
// nil when lines compare as they are.
func (d *diffRun) normalizer() func(string) string {
	o := d.o
	if !o.has("w") && !o.has("b") && !o.has("i") {
		return nil
	}
	return func(s string) string {
		s = strings.TrimSuffix(s, noEOL)
		switch {
		case o.has("w"):
			s = strings.Join(strings.Fields(s), "")
		case o.has("b"):
			s = strings.Join(strings.Fields(s), " ")
		}
		if o.has("i") {
			s = strings.ToLower(s)
		}
		return s
	}
}

func equalBy(a, b []string, key func(string) string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if key(a[i]) != key(b[i]) {
			return false
		}
	}
	return true
}
