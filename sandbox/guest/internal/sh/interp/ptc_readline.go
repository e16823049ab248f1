// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). It is read's
// fast path for the common call, a whole line (`read -r line`, `read a b
// rest`): the line is taken from the input's buffer at once and split as
// bytes. The general path decodes a character at a time into []rchar and
// splits runes against IFS with strings.ContainsRune; in a 10 k-line
// `while read` it was three quarters of the loop's time.

package interp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"sync"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"
)

// lineReader is an input read can take a whole line from at once: the
// read-ahead slot of a file, the buffered end of a pipe.
type lineReader interface {
	// readLine appends to dst what comes before the next delim and
	// consumes the delimiter; at the end of input it returns what there
	// was and the input's error.
	readLine(delim byte, dst []byte) ([]byte, error)
}

func (p *pipeReader) readLine(delim byte, dst []byte) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		s, err := p.br.ReadSlice(delim)
		if err == nil {
			return append(dst, s[:len(s)-1]...), nil
		}
		dst = append(dst, s...)
		if err != bufio.ErrBufferFull {
			return dst, err
		}
	}
}

// lineBufs recycles the bytes of the lines read takes.
var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// ifsBytes is an IFS made only of ASCII characters, as byte sets.
type ifsBytes struct {
	member, white [256]bool
}

// asciiIFS reports the byte sets of ifs, or false when ifs holds a
// character outside ASCII (the rune path handles that).
func asciiIFS(ifs string) (s ifsBytes, ok bool) {
	for i := 0; i < len(ifs); i++ {
		b := ifs[i]
		if b >= 0x80 {
			return s, false
		}
		s.member[b] = true
		s.white[b] = b == ' ' || b == '\t' || b == '\n'
	}
	return s, true
}

// readWholeLine is read for a call without -n, -N or -t on an input that
// can give a line at once; it reports false, having read nothing, when the
// call is not one of those. Without -r a line holding a backslash goes on
// through the general path, which also reads its continuation lines.
func (r *Runner) readWholeLine(ctx context.Context, in io.Reader, o readOpts) (status uint8, err error, done bool) {
	lr, ok := in.(lineReader)
	if !ok || o.nchars >= 0 || o.exact || o.hasTimout {
		return 0, nil, false
	}
	ifs := " \t\n"
	if vr := r.lookupVar("IFS"); vr.IsSet() {
		ifs = vr.String()
	}
	set, ok := asciiIFS(ifs)
	if !ok {
		return 0, nil, false
	}
	bp := lineBufs.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 64<<10 {
			lineBufs.Put(bp)
		}
	}()
	line, err := lr.readLine(o.delim, (*bp)[:0])
	*bp = line
	if err != nil {
		status = 1
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
			err = nil
		}
	}
	if !o.raw && bytes.IndexByte(line, '\\') >= 0 {
		taken := line
		if status == 0 {
			taken = append(taken, o.delim)
		}
		chars, st, rerr := readChars(ctx, io.MultiReader(bytes.NewReader(taken), in), o, readBufs.Get().([]rchar))
		r.assignRead(o, chars)
		if cap(chars) <= 64<<10 {
			readBufs.Put(chars[:0])
		}
		return st, rerr, true
	}
	r.assignReadBytes(o, line, &set)
	return status, err, true
}

// assignReadBytes is assignRead for a line read whole with an ASCII IFS:
// no character is escaped, so a field is a run of the line's bytes.
func (r *Runner) assignReadBytes(o readOpts, line []byte, set *ifsBytes) {
	switch {
	case o.array != "":
		fields, _ := readFieldsBytes(line, set)
		r.setVar(o.array, expand.Variable{Set: true, Kind: expand.Indexed, List: fields})
	case len(o.names) == 0:
		r.setVarString(shellReplyVar, string(line))
	default:
		var vals []string
		if set.onlyWhite() {
			vals = whiteFieldValues(len(o.names), line, set)
		} else {
			vals = fieldValues(len(o.names), line, set)
		}
		for i, name := range o.names {
			if err := r.assignTarget(name, vals[i]); err != nil {
				r.errf("read: %v\n", err)
			}
		}
	}
}

// onlyWhite reports whether every character of the IFS is a space, a tab
// or a newline (the default IFS among them).
func (s *ifsBytes) onlyWhite() bool {
	return s.member == s.white
}

// trimWhiteRight is b less its trailing IFS whitespace.
func (s *ifsBytes) trimWhiteRight(b []byte) []byte {
	for len(b) > 0 && s.white[b[len(b)-1]] {
		b = b[:len(b)-1]
	}
	return b
}

// fieldValues is what read gives n names from line: a field each, the
// last name the rest of the line (less trailing IFS whitespace) when
// there are more fields than names.
func fieldValues(n int, line []byte, set *ifsBytes) []string {
	fields, starts := readFieldsBytes(line, set)
	vals := make([]string, n)
	for i := range vals {
		switch {
		case i == n-1 && len(fields) > n:
			vals[i] = string(set.trimWhiteRight(line[starts[i]:]))
		case i < len(fields):
			vals[i] = fields[i]
		}
	}
	return vals
}

// whiteFieldValues is fieldValues for an IFS of whitespace only, where
// the last name's value is the rest of the line trimmed at both ends
// whether or not more fields follow: so only the fields before it are cut
// out (`read -r line` cuts none), with no slices of fields and starts.
func whiteFieldValues(n int, line []byte, set *ifsBytes) []string {
	vals := make([]string, n)
	rest := line
	for i := range vals {
		j := 0
		for j < len(rest) && set.white[rest[j]] {
			j++
		}
		rest = rest[j:]
		if i == n-1 {
			vals[i] = string(set.trimWhiteRight(rest))
			break
		}
		k := 0
		for k < len(rest) && !set.white[rest[k]] {
			k++
		}
		vals[i], rest = string(rest[:k]), rest[k:]
	}
	return vals
}

// readFieldsBytes splits line as readFields splits characters none of
// which is escaped: runs of IFS whitespace separate fields and are
// trimmed at the ends; each other IFS character ends a field, so two of
// them delimit an empty one.
func readFieldsBytes(line []byte, set *ifsBytes) (fields []string, starts []int) {
	started, wsEnded := false, false
	start := 0
	emit := func(f []byte, at int) {
		fields = append(fields, string(f))
		starts = append(starts, at)
	}
	for i, b := range line {
		if !set.member[b] {
			if !started {
				start, started = i, true
			}
			wsEnded = false
			continue
		}
		switch {
		case set.white[b]:
			if started {
				emit(line[start:i], start)
				started, wsEnded = false, true
			}
		case started:
			emit(line[start:i], start)
			started = false
		case wsEnded:
			wsEnded = false
		default:
			emit(nil, i)
		}
	}
	if started {
		emit(line[start:], start)
	}
	return fields, starts
}
