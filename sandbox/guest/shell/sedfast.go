package shell

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
)

// Two shapes of sed script skip the line-at-a-time machine, which costs
// a string and a cycle per line (in the wasm guest, microseconds a line):
//
//   - a script whose every command is limited to lines up to some number
//     (sed -n '1000,1010p', sed 1d, sed '2,5s/a/b/') does nothing after
//     that line, so the rest of the input is copied through unchanged, or
//     with -n not looked at;
//   - a script that is one s/literal/plain/[g] with no address, no flag but
//     g and a replacement without & or \ is a search and copy over whole
//     blocks of input.
//
// Both print exactly what the cycle would.

// lastLine returns the greatest line number at which any command of prog
// can run, or 0 when some command can run on any line. Commands inside a
// block limited to lines count as limited; labels and } do nothing.
func (p *sedProg) lastLine() int {
	last := 0
	for pc := 0; pc < len(p.cmds); pc++ {
		c := p.cmds[pc]
		switch {
		case c.name == '}' || c.name == ':':
			continue
		case c.name == '{' && c.a1 == nil:
			continue // runs its contents on every line: look at them
		}
		n := c.lineBound()
		if n == 0 {
			return 0
		}
		last = max(last, n)
		if c.name == '{' {
			pc = c.jump
		}
	}
	return last
}

// lineBound is the last line c's address can select, or 0 when there is
// none: it is not a number or a range of numbers (or number,+N), or it is
// negated.
func (c *sedCmd) lineBound() int {
	if c.a1 == nil || c.negate || !c.a1.plainLine() {
		return 0
	}
	a2 := c.a2
	switch {
	case a2 == nil:
		return c.a1.line
	case a2.plus > 0:
		return c.a1.line + a2.plus
	case a2.plainLine():
		return max(c.a1.line, a2.line)
	}
	return 0
}

// plainLine reports whether a is a bare line number (a +0 range end too).
func (a *sedAddr) plainLine() bool {
	return a.step == 0 && !a.last && a.re == nil && !a.emptyRe && a.plus == 0 && a.mult == 0
}

// passRest finishes the input once no command can run any more: the line
// just read (in ps) and the rest are printed as they are, or with -n only
// read to the end (not even that for a regular file, where nobody waits
// to write) as GNU sed would read them. It reports false, doing nothing,
// when the output cannot take a copy.
func (r *sedRun) passRest(in io.Reader) bool {
	if r.quiet {
		if f, ok := in.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				return true
			}
		}
		io.Copy(io.Discard, r.src.br)
		return true
	}
	w, ok := r.w.(io.Writer)
	if !ok {
		return false
	}
	r.emit(r.ps)
	r.flushAppend()
	if r.src.has {
		r.out(r.src.peek)
		if !r.src.peekNoEOL {
			r.w.WriteString(r.sep)
		}
	}
	r.src.br.WriteTo(w)
	return true
}

// streamLiteral reports whether prog is one s/literal/plain/[g] that
// substituteStream can run, and returns that command.
func (p *sedProg) streamLiteral(sep byte) (*sedCmd, bool) {
	if len(p.cmds) != 1 {
		return nil, false
	}
	c := p.cmds[0]
	ok := c.name == 's' && c.a1 == nil && !c.negate && c.lit != "" && c.nth == 0 && !c.print && c.wfile == "" &&
		bytes.IndexByte([]byte(c.lit), sep) < 0 && !bytes.ContainsAny([]byte(c.repl), `&\`)
	return c, ok
}

// substituteStream replaces c's literal by its replacement in in, every
// occurrence with g and otherwise the first of each line, writing to w. It
// works on blocks that end at a line separator (a longer line grows the
// block); the literal holds no separator, so no match spans two blocks.
func substituteStream(in io.Reader, w io.Writer, c *sedCmd, sep byte) error {
	lit, repl := []byte(c.lit), []byte(c.repl)
	buf, out := make([]byte, 0, 64<<10), []byte(nil)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := in.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		end := len(buf)
		if err == nil {
			end = bytes.LastIndexByte(buf, sep) + 1
		}
		out = replaceLiteral(out[:0], buf[:end], lit, repl, c.global, sep)
		if _, werr := w.Write(out); werr != nil {
			return werr
		}
		buf = buf[:copy(buf, buf[end:])]
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// replaceLiteral appends block to dst with lit replaced by repl: all of
// them with global, otherwise the first in each sep-ended line.
func replaceLiteral(dst, block, lit, repl []byte, global bool, sep byte) []byte {
	for {
		j := bytes.Index(block, lit)
		if j < 0 {
			return append(dst, block...)
		}
		dst = append(append(dst, block[:j]...), repl...)
		block = block[j+len(lit):]
		if !global {
			e := bytes.IndexByte(block, sep)
			if e < 0 {
				return append(dst, block...)
			}
			dst = append(dst, block[:e+1]...)
			block = block[e+1:]
		}
	}
}

// sedStream runs prog over in by substituteStream when it has that shape,
// reporting whether it did.
func (r *sedRun) sedStream(in io.Reader) bool {
	c, ok := r.prog.streamLiteral(r.sep[0])
	w, isWriter := r.w.(io.Writer)
	if !ok || !isWriter || r.quiet {
		return false
	}
	if bw, ok := w.(*bufio.Writer); ok {
		bw.Flush()
	}
	substituteStream(in, w, c, r.sep[0])
	return true
}
