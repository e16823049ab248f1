package search

import (
	"bytes"
	"context"
	"regexp"
	"regexp/syntax"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/ptc-dev/ptc/sandbox/guest/fileops"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// Sizes of grep's read buffer: it starts at readSize and grows for a
// longer line up to maxLine; the rest of a longer line is not searched.
const (
	readSize = 64 << 10
	maxLine  = 16 << 20
)

// grepper searches files line by line for one expression.
type grepper struct {
	re *regexp.Regexp
	// pre is re made multi-line ((?m): ^ and $ at line ends), run over
	// many lines at once: a line matching re is a match of pre at the same
	// place, so where pre finds nothing no line can match. nil when the
	// expression uses \A or \z, which mean "start/end of the line" only
	// line by line.
	pre *regexp.Regexp
	// crSensitive: the expression has a $, which matches before a line's
	// trailing CR only once the CR is cut (line by line), so the
	// prefilter is not used on buffers holding a CR.
	crSensitive bool
	limit       int
	resp        proto.FileResponse
	buf         []byte
}

// Grep searches regular text files under req.Path (binary files, .git and
// node_modules are skipped) for the RE2 expression req.Pattern, only
// files whose base name (or relative path, for a pattern with "/")
// matches Include when it is set. Matches come in path order with line
// numbers and lines cut as the read tool cuts them, capped at MaxResults;
// Total counts every matching line. The error is ctx's when it ended
// first.
func Grep(ctx context.Context, mounts []Mount, req *proto.FileRequest) (proto.FileResponse, error) {
	expr := req.Pattern
	if req.IgnoreCase {
		expr = "(?i)" + expr
	}
	g := &grepper{limit: maxResults(req), buf: make([]byte, readSize)}
	var err error
	if g.re, err = regexp.Compile(expr); err != nil {
		return failf(proto.ErrInvalid, "bad regular expression %q: %v", req.Pattern, err), nil
	}
	if ok, endLine := prefilterable(expr); ok {
		g.pre, g.crSensitive = regexp.MustCompile("(?m)"+expr), endLine
	}
	var include Matcher
	if req.Include != "" {
		if include, err = NewMatcher(req.Include); err != nil {
			return failf(proto.ErrInvalid, "bad include pattern %q: %v", req.Include, err), nil
		}
	}
	m, root, ok := resolve(mounts, req.Path)
	if !ok {
		return failf(proto.ErrNotFound, "%s %s", req.Path, outsideText), nil
	}
	w := &walker{ctx: ctx, m: m, visit: func(rel, fromRoot string) {
		if req.Include != "" && !include.Match(fromRoot) {
			return
		}
		f, e := m.FS.OpenFile(rel, experimentalsys.O_RDONLY, 0)
		if e != 0 {
			return
		}
		g.file(ctx, f, m.hostPath(rel))
		f.Close()
	}}
	if fail, err := w.walk(root); fail != nil || err != nil {
		return deref(fail), err
	}
	if err := ctx.Err(); err != nil { // it ended inside the last file
		return proto.FileResponse{}, err
	}
	g.resp.Truncated = g.resp.Total > len(g.resp.Matches)
	return g.resp, nil
}

// prefilterable reports whether expr can be run over many lines at once
// with (?m): it has no \A or \z (which would then mean the start or end
// of the whole buffer, not of each line). endLine is set when it has a $.
func prefilterable(expr string) (ok, endLine bool) {
	re, err := syntax.Parse(expr, syntax.Perl&^syntax.OneLine)
	if err != nil {
		return false, false
	}
	ok = true
	var walk func(*syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		switch r.Op {
		case syntax.OpBeginText, syntax.OpEndText:
			ok = false
		case syntax.OpEndLine:
			endLine = true
		}
		for _, s := range r.Sub {
			walk(s)
		}
	}
	walk(re)
	return ok, endLine
}

// file searches one open file, read in buffers of whole lines. A file
// with a NUL byte in its first bytes is binary and skipped; a read error
// or the end of ctx ends the file.
func (g *grepper) file(ctx context.Context, f experimentalsys.File, p string) {
	n, line, first, skipping := 0, 1, true, false
	for ctx.Err() == nil {
		if n == len(g.buf) { // a full buffer without a newline
			if len(g.buf) < maxLine {
				g.buf = append(g.buf, make([]byte, len(g.buf))...)
			} else {
				g.lines(g.buf, &line, p) // the line's first maxLine bytes
				n, skipping = 0, true
			}
		}
		k, e := f.Read(g.buf[n:])
		if e != 0 {
			return
		}
		if first && k > 0 {
			if fileops.IsBinary(g.buf[:k]) {
				return
			}
			first = false
		}
		if skipping { // the rest of an over-long line, already counted
			i := bytes.IndexByte(g.buf[:k], '\n')
			if i < 0 {
				if k == 0 {
					return
				}
				continue
			}
			copy(g.buf, g.buf[i+1:k])
			k, skipping = k-i-1, false
		}
		n += k
		end := n
		if k > 0 {
			end = bytes.LastIndexByte(g.buf[:n], '\n') + 1
		}
		if end > 0 {
			g.lines(g.buf[:end], &line, p)
			n = copy(g.buf, g.buf[end:n])
		}
		if k == 0 {
			return
		}
	}
}

// lines searches whole lines (the last may lack its newline), *line being
// the number of the first; it advances *line past them.
func (g *grepper) lines(b []byte, line *int, p string) {
	pre := g.pre
	if g.crSensitive && bytes.IndexByte(b, '\r') >= 0 {
		pre = nil
	}
	for len(b) > 0 {
		if pre != nil {
			loc := pre.FindIndex(b)
			if loc == nil {
				*line += bytes.Count(b, []byte{'\n'})
				return
			}
			start := bytes.LastIndexByte(b[:loc[0]], '\n') + 1
			*line += bytes.Count(b[:start], []byte{'\n'})
			if b = b[start:]; len(b) == 0 {
				return // an empty match after the last newline is no line
			}
		}
		text, rest, _ := bytes.Cut(b, []byte{'\n'})
		b = rest
		text = bytes.TrimSuffix(text, []byte{'\r'})
		if g.re.Match(text) {
			g.resp.Total++
			if len(g.resp.Matches) < g.limit {
				g.resp.Matches = append(g.resp.Matches, proto.Match{Path: p, Line: *line, Text: fileops.CutLine(string(text))})
			}
		}
		*line++
	}
}
