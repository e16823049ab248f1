// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). It is the read
// builtin, written after bash's: upstream's has no -d, -n, -N, -t or -u,
// prints the -p prompt where bash (without a terminal) prints none, and
// splits with rules that drop the empty fields a non-whitespace IFS
// delimits (IFS=, read a b c <<< "1,,3" gave b=3).

package interp

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"
)

// readOpts are the options of one read call.
type readOpts struct {
	raw       bool
	array     string // -a
	delim     byte   // -d; '\n' by default
	nchars    int    // -n or -N; -1 when not given
	exact     bool   // -N: ignore the delimiter, do not split
	timeout   float64
	hasTimout bool
	fd        int
	names     []string
}

// rchar is one character read, and whether a backslash protected it.
type rchar struct {
	r   rune
	esc bool
}

func (r *Runner) ptcRead(ctx context.Context, args []string) exitStatus {
	var exit exitStatus
	o, code, msg := parseReadOpts(args)
	if code != 0 {
		r.errf("read: %s\n", msg)
		exit.code = code
		return exit
	}
	for _, name := range append(o.names, o.array) {
		if name != "" && !validAssignTarget(name) {
			r.errf("read: `%s': not a valid identifier\n", name)
			exit.code = 1
			return exit
		}
	}
	in, err := r.readSource(o.fd)
	if err != nil {
		r.errf("read: %d: %v\n", o.fd, err)
		exit.code = 1
		return exit
	}
	if o.hasTimout && o.timeout == 0 {
		return exit // input is "available": nothing is read
	}
	if o.hasTimout {
		flushReadAhead() // it reads the input itself, on another goroutine
	} else if rs, ok := r.seekableInput(in); ok {
		in = pendingAhead.take(rs)
		defer pendingAhead.mu.Unlock()
	}
	status, err, done := r.readWholeLine(ctx, in, o)
	if !done {
		var chars []rchar
		chars, status, err = r.readInput(ctx, in, o)
		r.assignRead(o, chars)
		if cap(chars) <= 64<<10 {
			readBufs.Put(chars[:0])
		}
	}
	if err != nil {
		r.errf("read: read error: %d: %v\n", o.fd, err)
	}
	exit.code = status
	return exit
}

// readBufs recycles the characters read reads a line into: growing a new
// slice a character at a time for every line was a third of a
// while-read loop's time.
var readBufs = sync.Pool{New: func() any { return make([]rchar, 0, 256) }}

func parseReadOpts(args []string) (o readOpts, code uint8, msg string) {
	o = readOpts{delim: '\n', nchars: -1}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			f := a[j]
			if strings.IndexByte("adinNptu", f) >= 0 {
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return o, 2, "-" + string(f) + ": option requires an argument"
					}
					i++
					val = args[i]
				}
				if code, msg := o.setValue(f, val); code != 0 {
					return o, code, msg
				}
				break
			}
			switch f {
			case 'r':
				o.raw = true
			case 's', 'e':
			default:
				return o, 2, "-" + string(f) + ": invalid option\nread: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]"
			}
		}
	}
	o.names = args[i:]
	return o, 0, ""
}

func (o *readOpts) setValue(f byte, val string) (uint8, string) {
	switch f {
	case 'a':
		o.array = val
	case 'd':
		o.delim = 0
		if val != "" {
			o.delim = val[0]
		}
	case 'n', 'N':
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return 1, val + ": invalid number"
		}
		o.nchars, o.exact = n, f == 'N'
	case 't':
		t, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return 1, val + ": invalid timeout specification"
		}
		o.timeout, o.hasTimout = max(t, -t), true
	case 'u':
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return 1, val + ": invalid file descriptor specification"
		}
		o.fd = n
	}
	return 0, "" // -i text and -p prompt: no terminal, so nothing to show
}

// readSource is the reader behind descriptor fd.
func (r *Runner) readSource(fd int) (io.Reader, error) {
	if fd == 0 {
		if r.stdin == nil {
			return nil, errors.New("bad file descriptor")
		}
		return r.stdin, nil
	}
	return r.fdReader(fd)
}

// readInput reads up to the delimiter (or n characters), a byte at a time
// so that what follows stays for the next reader. Its status is 0 when
// the read ended as asked, 1 at end of input, 142 on a timeout.
func (r *Runner) readInput(ctx context.Context, in io.Reader, o readOpts) ([]rchar, uint8, error) {
	if !o.hasTimout {
		return readChars(ctx, in, o, readBufs.Get().([]rchar))
	}
	type result struct {
		chars  []rchar
		status uint8
		err    error
	}
	done := make(chan result, 1)
	go func() {
		c, s, err := readChars(ctx, in, o, nil)
		done <- result{c, s, err}
	}()
	t := time.NewTimer(time.Duration(o.timeout * float64(time.Second)))
	defer t.Stop()
	select {
	case res := <-done:
		return res.chars, res.status, res.err
	case <-t.C:
		return nil, 142, nil
	case <-ctx.Done():
		return nil, 1, ctx.Err()
	}
}

// readChars reads into chars (empty, its capacity reused).
func readChars(ctx context.Context, in io.Reader, o readOpts, chars []rchar) ([]rchar, uint8, error) {
	var pending []byte // an incomplete UTF-8 sequence
	esc := false
	var buf [1]byte
	br, _ := in.(io.ByteReader) // a buffered pipe or a read-ahead: no call per byte
	for i := 0; o.nchars < 0 || len(chars) < o.nchars; i++ {
		if i%64 == 0 && ctx.Err() != nil { // Err takes a lock: not every byte
			return chars, 1, nil
		}
		var n int
		var err error
		if br != nil {
			if buf[0], err = br.ReadByte(); err == nil {
				n = 1
			}
		} else {
			n, err = in.Read(buf[:])
		}
		if n == 0 {
			if err == nil {
				continue
			}
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
				err = nil
			}
			return chars, 1, err
		}
		b := buf[0]
		if len(pending) > 0 || b >= utf8.RuneSelf {
			pending = append(pending, b)
			if !utf8.FullRune(pending) {
				continue
			}
			rn, _ := utf8.DecodeRune(pending)
			if rn == utf8.RuneError {
				rn = rune(pending[0]) // keep the raw byte
			}
			chars = append(chars, rchar{rn, esc})
			pending, esc = pending[:0], false
			continue
		}
		switch {
		case esc:
			esc = false
			if b == '\n' {
				continue // a line continuation
			}
			chars = append(chars, rchar{rune(b), true})
		case b == '\\' && !o.raw:
			esc = true
		case b == o.delim && !o.exact:
			return chars, 0, nil
		default:
			chars = append(chars, rchar{rune(b), false})
		}
	}
	return chars, 0, nil
}

// assignRead sets the variables read names from what it read.
func (r *Runner) assignRead(o readOpts, chars []rchar) {
	ifs := " \t\n"
	if vr := r.lookupVar("IFS"); vr.IsSet() {
		ifs = vr.String()
	}
	switch {
	case o.array != "":
		fields, _ := readFields(chars, ifs)
		r.setVar(o.array, expand.Variable{Set: true, Kind: expand.Indexed, List: append([]string{}, fields...)})
	case len(o.names) == 0:
		r.setVarString(shellReplyVar, charsString(chars))
	case o.exact:
		r.assignTarget(o.names[0], charsString(chars))
		for _, name := range o.names[1:] {
			r.assignTarget(name, "")
		}
	default:
		fields, starts := readFields(chars, ifs)
		for i, name := range o.names {
			val := ""
			switch {
			case i == len(o.names)-1 && len(fields) > len(o.names):
				val = charsString(trimIFSWhitespace(chars[starts[i]:], ifs))
			case i < len(fields):
				val = fields[i]
			}
			if err := r.assignTarget(name, val); err != nil {
				r.errf("read: %v\n", err)
			}
		}
	}
}

func charsString(chars []rchar) string {
	var sb strings.Builder
	for _, c := range chars {
		sb.WriteRune(c.r)
	}
	return sb.String()
}

func isIFSWhite(c rchar, ifs string) bool {
	return !c.esc && (c.r == ' ' || c.r == '\t' || c.r == '\n') && strings.ContainsRune(ifs, c.r)
}

func trimIFSWhitespace(chars []rchar, ifs string) []rchar {
	for len(chars) > 0 && isIFSWhite(chars[len(chars)-1], ifs) {
		chars = chars[:len(chars)-1]
	}
	return chars
}

// readFields splits what read read on IFS with the rules of word
// splitting (escaped characters never split) and returns the fields with
// the index in chars where each starts.
func readFields(chars []rchar, ifs string) (fields []string, starts []int) {
	var cur strings.Builder
	started, wsEnded := false, false
	start := 0
	flush := func() {
		fields = append(fields, cur.String())
		starts = append(starts, start)
		cur.Reset()
		started = false
	}
	for i, c := range chars {
		if c.esc || !strings.ContainsRune(ifs, c.r) {
			if !started {
				start = i
			}
			cur.WriteRune(c.r)
			started, wsEnded = true, false
			continue
		}
		switch {
		case isIFSWhite(c, ifs):
			if started {
				flush()
				wsEnded = true
			}
		case started:
			flush()
		case wsEnded:
			wsEnded = false
		default:
			start = i
			flush()
		}
	}
	if started {
		flush()
	}
	return fields, starts
}
