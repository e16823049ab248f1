// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). Upstream knows only
// descriptors 0, 1 and 2: `exec 3>&1`, `read -u 3`, `2>&3`, here-documents
// on another descriptor, {var}> allocation, N>&M- moves, <> and >| all fail
// with "unsupported redirect fd", and /dev/stdout, /dev/stderr and
// /dev/fd/N do not exist in the sandbox. This file adds a descriptor table
// for 3 and up, the redirections on it, noclobber, the /dev paths, and
// process substitution over in-memory pipes (upstream makes a FIFO, which
// wasip1 cannot, and then goes on with status 0).

package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"
)

// ptcRunner is ptc's state in a Runner.
type ptcRunner struct {
	fds map[int]fdObj // descriptors 3 and up
	// seekable serves read's read-ahead (ptc_readahead.go).
	seekable map[*os.File]bool
	procs    []*procSubst // process substitutions of the command being expanded
	// funcDepth bounds function recursion (ptc_limits.go).
	funcDepth int
	// traceErr is where set -x writes: the shell's stderr before the
	// current statement's own redirections, as in bash.
	traceErr io.Writer
	// outerOut is the shell's stdout before the current statement's own
	// redirections: a >(cmd) writes there, as bash opens it before them
	// (`tee >(tr x y) >/dev/null` prints y).
	outerOut io.Writer
	// shopts and setOpts hold the bash options the interpreter does not
	// implement, once changed (ptc_shopt.go); they are copied on write.
	shopts, setOpts map[string]bool
	// traps holds every trap set, by signal name (ptc_trap.go); EXIT and
	// ERR also live in the Runner's callbacks.
	traps map[string]string
	// funcs is the stack of functions being run, innermost last, for
	// FUNCNAME (ptc_vars.go).
	funcs []string
	// subshell numbers this runner among the subshells, for BASHPID.
	subshell int64
	// pipeStatus is PIPESTATUS and lastArg is $_, kept here rather than
	// as variables since every command sets them (ptc_vars.go).
	pipeStatus []int
	lastArg    string
	// softArith makes arithmetic errors in expansions fail the command
	// instead of the shell, as inside [[ ]].
	softArith bool
	// varFDs are descriptors {var}> opened in the current statement; they
	// stay open after it, as in bash.
	varFDs []int
}

// fdObj is what a descriptor refers to.
type fdObj struct {
	r     io.Reader // nil when not open for reading
	w     io.Writer // nil when not open for writing
	owner *sharedFile
}

// sharedFile closes a file once no descriptor refers to it.
type sharedFile struct {
	c    io.Closer
	refs atomic.Int32
}

func newShared(c io.Closer) *sharedFile {
	s := &sharedFile{c: c}
	s.refs.Store(1)
	return s
}

func (o fdObj) ref() fdObj {
	if o.owner != nil {
		o.owner.refs.Add(1)
	}
	return o
}

func (o fdObj) unref() {
	if o.owner != nil && o.owner.refs.Add(-1) == 0 {
		o.owner.c.Close()
	}
}

// cloneFDs is the table a subshell starts with: the same files, shared.
func (p *ptcRunner) cloneFDs() map[int]fdObj {
	if len(p.fds) == 0 {
		return nil
	}
	m := make(map[int]fdObj, len(p.fds))
	for n, o := range p.fds {
		m[n] = o.ref()
	}
	return m
}

func (r *Runner) setFD(n int, o fdObj) {
	if old, ok := r.ptc.fds[n]; ok {
		old.unref()
	}
	if r.ptc.fds == nil {
		r.ptc.fds = map[int]fdObj{}
	}
	r.ptc.fds[n] = o
}

func (r *Runner) closeFD(n int) {
	if old, ok := r.ptc.fds[n]; ok {
		old.unref()
		delete(r.ptc.fds, n)
	}
}

// getFD returns what descriptor n refers to, 0 to 2 included.
func (r *Runner) getFD(n int) (fdObj, bool) {
	switch n {
	case 0:
		if r.stdin == nil {
			return fdObj{}, false
		}
		return fdObj{r: r.stdin}, true
	case 1:
		return fdObj{w: r.stdout}, r.stdout != nil
	case 2:
		return fdObj{w: r.stderr}, r.stderr != nil
	}
	o, ok := r.ptc.fds[n]
	return o, ok
}

// fdReader is the reader behind descriptor fd, for read -u.
func (r *Runner) fdReader(fd int) (io.Reader, error) {
	o, ok := r.getFD(fd)
	if !ok || o.r == nil {
		return nil, errBadFD
	}
	return o.r, nil
}

var errBadFD = errors.New("Bad file descriptor")

// PtcFD gives an exec handler the descriptors above 2 of the command it
// runs (read_from_fd.py, or a builtin opening /dev/fd/N). It is found by
// an interface assertion, so callers also build with the unpatched module.
func (hc HandlerContext) PtcFD(n int) (io.Reader, io.Writer, bool) {
	o, ok := hc.runner.getFD(n)
	return o.r, o.w, ok
}

// fdSnapshot is the descriptor table before a statement's redirections.
type fdSnapshot struct {
	fds   map[int]fdObj
	saved bool
}

// saveFDs snapshots the table when one of redirs touches a descriptor
// above 2, so the statement's changes can be undone.
func (r *Runner) saveFDs(redirs []*syntax.Redirect) fdSnapshot {
	for _, rd := range redirs {
		if rd.N == nil {
			continue
		}
		if n, err := strconv.Atoi(rd.N.Value); err == nil && n < 3 {
			continue
		}
		return fdSnapshot{fds: r.ptc.cloneFDs(), saved: true}
	}
	return fdSnapshot{}
}

// restoreFDs undoes a statement's redirections on descriptors above 2.
func (r *Runner) restoreFDs(s fdSnapshot) {
	if !s.saved {
		return
	}
	for _, n := range r.ptc.varFDs {
		if o, ok := r.ptc.fds[n]; ok {
			if s.fds == nil {
				s.fds = map[int]fdObj{}
			}
			if old, ok := s.fds[n]; ok {
				old.unref()
			}
			s.fds[n] = o.ref()
		}
	}
	r.ptc.varFDs = r.ptc.varFDs[:0]
	for _, o := range r.ptc.fds {
		o.unref()
	}
	r.ptc.fds = s.fds
}

func (r *Runner) traceOutput() io.Writer {
	if r.ptc.traceErr != nil {
		return r.ptc.traceErr
	}
	return r.stderr
}

// dropFDs lets go of every descriptor above 2 of a runner that is done
// (a process substitution's subshell), so a pipe end it inherited closes
// when its other holders close it.
func (r *Runner) dropFDs() {
	for n := range r.ptc.fds {
		r.closeFD(n)
	}
}

// keepFDs makes a statement's redirections permanent (exec).
func (r *Runner) keepFDs(s fdSnapshot) {
	for _, o := range s.fds {
		o.unref()
	}
}

// redirFD is the descriptor a redirection applies to; {var} allocates
// one from 10 up and stores its number in var.
func (r *Runner) redirFD(rd *syntax.Redirect) (int, error) {
	def := 1
	switch rd.Op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		def = 0
	}
	if rd.N == nil {
		return def, nil
	}
	v := rd.N.Value
	if name, ok := strings.CutPrefix(v, "{"); ok {
		name = strings.TrimSuffix(name, "}")
		if isCloseOrMove(r, rd) {
			n, err := strconv.Atoi(r.envGet(name))
			if err != nil {
				return 0, fmt.Errorf("$%s: %w", name, errBadFD)
			}
			return n, nil
		}
		n := 10
		for ; ; n++ {
			if _, used := r.ptc.fds[n]; !used {
				break
			}
		}
		r.setVarString(name, strconv.Itoa(n))
		r.ptc.varFDs = append(r.ptc.varFDs, n)
		return n, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s: invalid file descriptor", v)
	}
	return n, nil
}

func isCloseOrMove(r *Runner, rd *syntax.Redirect) bool {
	return (rd.Op == syntax.DplIn || rd.Op == syntax.DplOut) && rd.Word != nil && strings.HasSuffix(rd.Word.Lit(), "-")
}

// assign makes descriptor n refer to o.
func (r *Runner) assign(n int, o fdObj) error {
	switch n {
	case 0:
		if o.r == nil {
			return errBadFD
		}
		in, err := newStdinFile(o.r)
		if err != nil {
			return err
		}
		r.stdin = in
	case 1:
		if o.w == nil {
			return errBadFD
		}
		r.stdout = o.w
	case 2:
		if o.w == nil {
			return errBadFD
		}
		r.stderr = o.w
	default:
		r.setFD(n, o)
		return nil
	}
	// 0 to 2 borrow o: the statement that opened it closes it.
	return nil
}

// ptcRedir performs one redirection. The returned closer is for a file
// that only descriptors 0 to 2 refer to; the statement closes it.
func (r *Runner) ptcRedir(ctx context.Context, rd *syntax.Redirect) (io.Closer, error) {
	flushReadAhead() // a write through a duplicate of read's file lands where bash's would (ptc_readahead.go)
	fd, err := r.redirFD(rd)
	if err != nil {
		return nil, err
	}
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		var body string
		if rd.Op == syntax.WordHdoc {
			body = r.literal(rd.Word) + "\n"
		} else {
			body = r.hdocString(rd)
		}
		pr, pw, err := newPipe()
		if err != nil {
			return nil, err
		}
		go func() {
			io.WriteString(pw, body)
			pw.Close()
		}()
		return r.place(fd, fdObj{r: pr}, pr)
	case syntax.DplIn, syntax.DplOut:
		return r.dup(ctx, rd, fd)
	}
	arg, err := r.redirWord(rd.Word)
	if err != nil {
		return nil, err
	}
	var flags int
	switch rd.Op {
	case syntax.RdrIn:
		flags = os.O_RDONLY
	case syntax.RdrInOut:
		flags = os.O_RDWR | os.O_CREATE
	case syntax.AppOut, syntax.AppAll:
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	case syntax.RdrOut, syntax.RdrAll, syntax.RdrClob:
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if r.opts[optNoClobber] && rd.Op != syntax.RdrClob && r.isRegularFile(ctx, arg) {
			return nil, fmt.Errorf("%s: cannot overwrite existing file", arg)
		}
	default:
		return nil, fmt.Errorf("unhandled redirect op: %v", rd.Op)
	}
	f, err := r.open(ctx, arg, flags, 0o644, false)
	if err != nil {
		return nil, err
	}
	o := fdObj{}
	if flags&(os.O_WRONLY|os.O_RDWR) == 0 || flags&os.O_RDWR != 0 {
		o.r = f
	}
	if flags&(os.O_WRONLY|os.O_RDWR) != 0 {
		o.w = f
	}
	if rd.Op == syntax.RdrAll || rd.Op == syntax.AppAll {
		r.stdout, r.stderr = f, f
		return f, nil
	}
	return r.place(fd, o, f)
}

// redirWord expands the target of a redirection, which must be one word
// after splitting and globbing, as in bash.
func (r *Runner) redirWord(w *syntax.Word) (string, error) {
	fields := r.fields(w)
	if len(fields) != 1 {
		var sb strings.Builder
		syntax.NewPrinter().Print(&sb, w)
		return "", fmt.Errorf("%s: ambiguous redirect", sb.String())
	}
	return fields[0], nil
}

// place puts a newly opened file on descriptor fd.
func (r *Runner) place(fd int, o fdObj, c io.Closer) (io.Closer, error) {
	if fd > 2 {
		o.owner = newShared(c)
		r.setFD(fd, o)
		return nil, nil
	}
	if err := r.assign(fd, o); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// dup performs N>&M, N<&M, N>&M- (move) and N>&- (close); >&word with a
// word that is not a number sends stdout and stderr to that file.
func (r *Runner) dup(ctx context.Context, rd *syntax.Redirect, fd int) (io.Closer, error) {
	arg, err := r.redirWord(rd.Word)
	if err != nil {
		return nil, err
	}
	if arg == "-" {
		switch fd {
		case 0:
			r.stdin = nil
		case 1:
			r.stdout = io.Discard
		case 2:
			r.stderr = io.Discard
		default:
			r.closeFD(fd)
		}
		return nil, nil
	}
	src, move := strings.CutSuffix(arg, "-")
	from, err := strconv.Atoi(src)
	if err != nil || from < 0 {
		if rd.Op == syntax.DplOut {
			// >&file is &>file; N>&file sends just N there.
			f, err := r.open(ctx, arg, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644, false)
			if err != nil {
				return nil, err
			}
			if rd.N == nil {
				r.stdout, r.stderr = f, f
				return f, nil
			}
			return r.place(fd, fdObj{w: f}, f)
		}
		return nil, fmt.Errorf("%s: ambiguous redirect", arg)
	}
	o, ok := r.getFD(from)
	if !ok || (rd.Op == syntax.DplIn && o.r == nil && from > 2) {
		return nil, fmt.Errorf("%d: %w", from, errBadFD)
	}
	if fd > 2 {
		r.setFD(fd, o.ref())
	} else if err := r.assign(fd, o); err != nil {
		return nil, fmt.Errorf("%d: %w", from, err)
	}
	if move && from != fd {
		if from > 2 {
			r.closeFD(from)
		}
	}
	return nil, nil
}

func (r *Runner) isRegularFile(ctx context.Context, path string) bool {
	if _, ok := devPath(path); ok {
		return false
	}
	info, err := r.stat(ctx, path)
	return err == nil && info.Mode().IsRegular()
}

// devPath maps /dev/stdin, /dev/stdout, /dev/stderr and /dev/fd/N to
// their descriptor.
func devPath(path string) (int, bool) {
	switch filepath.Clean(path) {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	if n, ok := strings.CutPrefix(filepath.Clean(path), "/dev/fd/"); ok {
		if fd, err := strconv.Atoi(n); err == nil && fd >= 0 {
			return fd, true
		}
	}
	return 0, false
}

// openDev opens one of the devPath paths as the descriptor it names.
func (r *Runner) openDev(path string) (io.ReadWriteCloser, bool, error) {
	fd, ok := devPath(path)
	if !ok {
		return nil, false, nil
	}
	o, open := r.getFD(fd)
	if !open {
		return nil, true, &os.PathError{Op: "open", Path: path, Err: errors.New("no such device or address")}
	}
	return devFile{o}, true, nil
}

// devFile is a descriptor reopened by path; closing it leaves the
// descriptor open.
type devFile struct{ o fdObj }

func (d devFile) Read(p []byte) (int, error) {
	if d.o.r == nil {
		return 0, errBadFD
	}
	return d.o.r.Read(p)
}

func (d devFile) Write(p []byte) (int, error) {
	if d.o.w == nil {
		return 0, errBadFD
	}
	return d.o.w.Write(p)
}

func (devFile) Close() error { return nil }

// procSubst is one <(cmd) or >(cmd) of the command being expanded.
type procSubst struct {
	fd   int
	w    io.Closer // >(cmd): the writer the command gets; closing it ends cmd
	r    io.Closer // <(cmd): the reader the command gets
	done sync.WaitGroup
}

// procSubstPath starts a process substitution on a pipe and returns the
// /dev/fd path the command reads or writes it through.
func (r *Runner) procSubstPath(ctx context.Context, ps *syntax.ProcSubst) (string, error) {
	if ps.Op != syntax.CmdIn && ps.Op != syntax.CmdOut {
		return "", fmt.Errorf("unsupported process substitution: %v", ps.Op)
	}
	fd := 63
	for ; fd > 10; fd-- {
		if _, used := r.ptc.fds[fd]; !used {
			break
		}
	}
	pr, pw, err := newPipe()
	if err != nil {
		return "", err
	}
	p := &procSubst{fd: fd}
	r2 := r.subshell(true)
	// The other substitutions of this command are not the child's: its
	// copies would keep their pipes open after the command closes them,
	// and with unbuffered pipes one blocked writer then waits for another
	// (cat <(echo a) <(echo b) hung when cat did not read them all).
	for _, q := range r.ptc.procs {
		r2.closeFD(q.fd)
	}
	if ps.Op == syntax.CmdIn {
		r2.stdout = pw
		p.r = pr
		r.setFD(fd, fdObj{r: pr, owner: newShared(pr)})
	} else {
		r2.stdin = pr
		r2.stdout = r.stdout
		if r.ptc.outerOut != nil {
			r2.stdout = r.ptc.outerOut
		}
		p.w = pw
		r.setFD(fd, fdObj{w: pw, owner: newShared(pw)})
	}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		r2.stmts(ctx, ps.Stmts)
		r2.dropFDs()
		if ps.Op == syntax.CmdIn {
			pw.Close()
		} else {
			pr.Close()
		}
	}()
	r.ptc.procs = append(r.ptc.procs, p)
	return "/dev/fd/" + strconv.Itoa(fd), nil
}

// endProcSubsts closes the process substitutions of the command that just
// ran and waits for them, so their output comes before what follows.
func (r *Runner) endProcSubsts(from int) {
	if len(r.ptc.procs) <= from {
		return
	}
	for _, p := range r.ptc.procs[from:] {
		r.closeFD(p.fd)
		p.done.Wait()
	}
	r.ptc.procs = r.ptc.procs[:from]
}

// cloneForSubshell copies ptc's state into a subshell.
func (p *ptcRunner) cloneForSubshell() ptcRunner {
	return ptcRunner{fds: p.cloneFDs(), funcDepth: p.funcDepth, shopts: p.shopts, setOpts: p.setOpts,
		funcs: p.funcs, subshell: subshellCount.Add(1),
		pipeStatus: slices.Clone(p.pipeStatus), lastArg: p.lastArg}
}
