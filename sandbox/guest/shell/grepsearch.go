package shell

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
)

// searchFile searches one file; inDir says it was found by recursing into
// a directory operand. The file is read whole into g.buf, which is reused
// from file to file.
func (g *grepRun) searchFile(name string, inDir bool) error {
	return g.searchPath(name, g.c.path(name), inDir)
}

// searchPath is searchFile with the file's full path already known.
func (g *grepRun) searchPath(name, full string, inDir bool) error {
	data, _, err := readUpTo(g.buf[:0], full, math.MaxInt)
	g.buf = data
	if err != nil {
		return err
	}
	s := g.begin(name, data, inDir)
	if s.skip {
		return nil
	}
	g.lines(s, data)
	g.end(s)
	return nil
}

// searchLarge searches a named file too large to be worth reading whole
// as a stream, in blocks: an 8 MB log read into one buffer cost the
// guest more in growing, clearing and copying that buffer than the
// search itself.
func (g *grepRun) searchLarge(name string) error {
	f, err := os.Open(g.c.path(name))
	if err != nil {
		return err
	}
	defer f.Close()
	return g.search(name, f, false)
}

// grepStreamBlock is how much of a stream grep reads at a time.
const grepStreamBlock = 256 << 10

// search searches a stream a block of whole lines at a time, so its
// memory stays bounded whatever the input's size, and it stops reading
// once nothing more can change what it prints (-m reached, -q or -l
// matched). With -B the earlier lines a match may show can lie in a
// block already gone, so the stream is read whole then.
func (g *grepRun) search(name string, r io.Reader, inDir bool) error {
	if g.before > 0 {
		data, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		s := g.begin(name, data, inDir)
		if !s.skip {
			g.lines(s, data)
			g.end(s)
		}
		return nil
	}
	buf := make([]byte, 0, grepStreamBlock)
	var s *grepFile
	for {
		n, err := io.ReadAtLeast(r, buf[len(buf):cap(buf)], 1)
		buf = buf[:len(buf)+n]
		eof := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !eof {
			return err
		}
		if s == nil && (len(buf) >= 8<<10 || eof) {
			if s = g.begin(name, buf, inDir); s.skip {
				return nil
			}
		}
		if s == nil {
			continue
		}
		whole := len(buf)
		if !eof {
			whole = bytes.LastIndexByte(buf, '\n') + 1
		}
		if _, werr := g.w.Write(nil); werr != nil {
			return nil // the output is gone (… | grep x | head): stop reading
		}
		if whole > 0 || eof {
			if g.lines(s, buf[:whole]) || eof {
				g.end(s)
				return nil
			}
		}
		rest := copy(buf, buf[whole:])
		buf = buf[:rest]
		if rest == cap(buf) { // one line longer than the block: grow
			buf = append(buf, 0)[:rest]
		}
	}
}

// grepFile is the state of one input's search, carried from block to
// block of a stream.
type grepFile struct {
	name, prefix string
	binary       bool
	skip         bool // a binary file skipped with -I
	stopped      bool // nothing further can be printed
	count        int  // matching lines so far
	lineBase     int  // lines in the blocks before this one
	byteBase     int  // bytes in the blocks before this one
	lastPrinted  int  // the last line printed, 1-based over the whole input
	afterLeft    int  // -A lines still to print
}

// begin starts the search of an input whose first bytes are head.
func (g *grepRun) begin(name string, head []byte, inDir bool) *grepFile {
	s := &grepFile{name: name}
	s.binary = !g.f.text && bytes.IndexByte(head[:min(len(head), 8<<10)], 0) >= 0
	s.skip = s.binary && g.f.skipBinary
	if g.names == namesAlways || g.names == namesInDirs && inDir {
		s.prefix = name
	}
	return s
}

// lines searches data, whole lines (the last may lack its newline only at
// the end of the input), and reports whether the search is over.
func (g *grepRun) lines(s *grepFile, data []byte) bool {
	if s.stopped {
		return true
	}
	f, w := &g.f, g.w
	base := s.lineBase
	literal := len(g.lits) == 1 && !f.invert && !f.only && g.before == 0 && g.after == 0
	if !literal || g.lineNumbers { // literalLines counts lines only for -n
		s.lineBase += countByte(data, '\n')
		if len(data) > 0 && data[len(data)-1] != '\n' {
			s.lineBase++
		}
	}
	size := len(data)
	defer func() { s.byteBase += size }()
	// Where no line can match, skip the per-line work: a block without a
	// match of the multi-line form cannot have a matching line. -A still
	// needs the lines after a match of the block before.
	if literal {
		return g.literalLines(s, data, base) // one search of the block finds no match too
	}
	scan := len(data) > 0
	switch {
	case f.invert, s.afterLeft > 0:
	case g.lits != nil:
		scan = scan && g.containsLiteral(data)
	case g.any != nil:
		scan = scan && g.any.Match(data)
	}
	starts := g.starts[:0]
	if scan {
		body := bytes.TrimSuffix(data, []byte("\n"))
		data = body
		for i := 0; ; {
			starts = append(starts, i)
			j := bytes.IndexByte(body[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
		}
	}
	g.starts = starts
	for i := range starts {
		if g.maxN >= 0 && s.count >= g.maxN {
			s.stopped = s.afterLeft == 0
			if s.stopped {
				return true
			}
		}
		n := base + i + 1
		line := lineAt(data, starts, i)
		var found [][]int
		var hit bool
		if f.only {
			found = g.re.FindAllIndex(line, -1)
			hit = found != nil
		} else {
			hit = g.match(line) != f.invert
		}
		if !hit || g.maxN >= 0 && s.count >= g.maxN {
			if s.afterLeft > 0 && !f.quiet && !s.binary {
				g.printLine(s, n, starts[i], line, '-')
				s.lastPrinted = n
				s.afterLeft--
			}
			continue
		}
		s.count++
		g.matched = true
		if f.quiet {
			if f.summary == 'q' || f.summary == 'l' {
				s.stopped = true
				return true
			}
			continue
		}
		if s.binary {
			// GNU grep 3.5+ says so on stderr, in these words
			w.Flush()
			fmt.Fprintf(g.c.stderr, "grep: %s: binary file matches\n", s.name)
			s.stopped = true
			return true
		}
		if g.before > 0 || g.after > 0 {
			from := max(n-g.before, s.lastPrinted+1)
			if s.lastPrinted > 0 && from > s.lastPrinted+1 {
				w.WriteString("--\n")
			}
			for j := from; j < n; j++ {
				k := j - base - 1
				g.printLine(s, j, starts[k], lineAt(data, starts, k), '-')
			}
		}
		if f.only {
			for _, m := range found {
				if m[1] > m[0] {
					g.printLine(s, n, starts[i]+m[0], line[m[0]:m[1]], ':')
				}
			}
		} else {
			g.printLine(s, n, starts[i], line, ':')
		}
		s.lastPrinted, s.afterLeft = n, g.after
	}
	return false
}

// literalLines is lines for one literal and no -v, -o or context: the
// literal is looked for in the whole block and only the lines that hold
// it are cut out, as GNU grep does, instead of splitting every line and
// searching each (grep ERROR over a 100 000-line log made 100 000
// searches of a line for 14 000 matches).
func (g *grepRun) literalLines(s *grepFile, data []byte, base int) bool {
	lit := g.lits[0]
	n, counted := base, 0 // lines before data[counted:]
	for at := 0; at < len(data); {
		k := bytes.Index(data[at:], lit)
		if k < 0 {
			break
		}
		var start int
		if i := bytes.LastIndexByte(data[at:at+k], '\n'); i >= 0 {
			start = at + i + 1
		} else {
			start = at
		}
		end := len(data)
		if e := bytes.IndexByte(data[at+k:], '\n'); e >= 0 {
			end = at + k + e
		}
		if g.lineNumbers {
			n += countByte(data[counted:start], '\n')
			counted = start
		}
		if g.maxN >= 0 && s.count >= g.maxN {
			s.stopped = true
			return true
		}
		s.count++
		g.matched = true
		switch {
		case g.f.quiet && (g.f.summary == 'q' || g.f.summary == 'l'):
			s.stopped = true
			return true
		case g.f.quiet:
		case s.binary:
			g.w.Flush()
			fmt.Fprintf(g.c.stderr, "grep: %s: binary file matches\n", s.name)
			s.stopped = true
			return true
		default:
			g.printLine(s, n+1, start, data[start:end], ':')
		}
		at = end + 1
	}
	return false
}

// end prints what is printed once an input is searched (-l, -L, -c).
func (g *grepRun) end(s *grepFile) {
	w := g.w
	switch g.f.summary {
	case 'q':
	case 'l':
		if s.count > 0 {
			w.WriteString(s.name + g.nameEnd("\n"))
		}
	case 'L':
		if s.count == 0 {
			w.WriteString(s.name + g.nameEnd("\n"))
		}
	case 'c':
		if s.prefix != "" {
			fmt.Fprintf(w, "%s:%d\n", s.prefix, s.count)
		} else {
			fmt.Fprintln(w, s.count)
		}
	}
}

// lineAt returns line i (0-based) of data given the line starts.
func lineAt(data []byte, starts []int, i int) []byte {
	end := len(data)
	if i+1 < len(starts) {
		end = starts[i+1] - 1
	}
	return data[starts[i]:end]
}

// match reports whether line matches; a plain literal is found with
// bytes.Contains, which is several times cheaper than the regexp machine.
func (g *grepRun) match(line []byte) bool {
	if g.lits != nil {
		return g.containsLiteral(line)
	}
	return g.re.Match(line)
}

// containsLiteral reports whether b holds one of the literals.
func (g *grepRun) containsLiteral(b []byte) bool {
	for _, l := range g.lits {
		if bytes.Contains(b, l) {
			return true
		}
	}
	return false
}

// nameEnd is what follows a file name: NUL with -Z, else sep.
func (g *grepRun) nameEnd(sep string) string {
	if g.f.nullName {
		return "\x00"
	}
	return sep
}

// printLine prints line n of input s (text, at byte off of the block).
func (g *grepRun) printLine(s *grepFile, n, off int, text []byte, sep byte) {
	bw := g.w
	if s.prefix != "" {
		bw.WriteString(s.prefix)
		bw.WriteString(g.nameEnd(string(sep)))
	}
	if g.lineNumbers {
		bw.Write(strconv.AppendInt(g.num[:0], int64(n), 10))
		bw.WriteByte(sep)
	}
	if g.f.byteOffset {
		bw.Write(strconv.AppendInt(g.num[:0], int64(s.byteBase+off), 10))
		bw.WriteByte(sep)
	}
	bw.Write(text)
	bw.WriteByte('\n')
}
