// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"
	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/internal"
	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/pattern"
	"mvdan.cc/sh/v3/syntax"
)

const (
	// shellReplyPS3Var, or PS3, is a special variable in Bash used by the select command,
	// while the shell is awaiting for input. the default value is [shellDefaultPS3]
	shellReplyPS3Var = "PS3"
	// shellDefaultPS3, or #?, is PS3's default value
	shellDefaultPS3 = "#? "
	// shellReplyVar, or REPLY, is a special variable in Bash that is used to store the result of
	// the select command or of the read command, when no variable name is specified
	shellReplyVar = "REPLY"

	fifoNamePrefix = "sh-interp-"
)

func (r *Runner) fillExpandConfig(ctx context.Context) {
	r.ectx = ctx
	r.ecfg = &expand.Config{
		Env: expandEnv{r},
		CmdSubst: func(w io.Writer, cs *syntax.CmdSubst) error {
			switch len(cs.Stmts) {
			case 0: // nothing to do
				return nil
			case 1: // $(<file)
				word := catShortcutArg(cs.Stmts[0])
				if word == nil {
					break
				}
				path := r.literal(word)
				f, err := r.open(ctx, path, os.O_RDONLY, 0, true)
				if err != nil {
					return err
				}
				_, err = io.Copy(w, f)
				f.Close()
				return err
			}
			r2 := r.subshell(false)
			r2.stdout = w
			r2.stmts(ctx, cs.Stmts)
			r2.exit.exiting, r2.exit.aborting = false, false // subshells don't exit the parent shell (ptc: nor abort its command)
			r.lastExpandExit = r2.exit
			if r2.exit.fatalExit {
				return r2.exit.err // surface fatal errors immediately
			}
			return nil
		},
		// ptc: process substitution over in-memory pipes and /dev/fd/N
		// (ptc_fds.go); upstream makes a FIFO, which wasip1 cannot, and
		// then reported the error but went on with status 0.
		ProcSubst: func(ps *syntax.ProcSubst) (string, error) {
			return r.procSubstPath(ctx, ps)
		},
	}
	r.updateExpandOpts()
}

// catShortcutArg checks if a statement is of the form "$(<file)". The redirect
// word is returned if there's a match, and nil otherwise.
func catShortcutArg(stmt *syntax.Stmt) *syntax.Word {
	if stmt.Cmd != nil || stmt.Negated || stmt.Background || stmt.Coprocess || stmt.Disown {
		return nil
	}
	if len(stmt.Redirs) != 1 {
		return nil
	}
	redir := stmt.Redirs[0]
	if redir.Op != syntax.RdrIn {
		return nil
	}
	return redir.Word
}

func (r *Runner) updateExpandOpts() {
	if r.opts[optNoGlob] {
		r.ecfg.ReadDir2 = nil
	} else {
		r.ecfg.ReadDir2 = func(s string) ([]fs.DirEntry, error) {
			return r.readDirHandler(r.handlerCtx(r.ectx, handlerKindReadDir, todoPos), s)
		}
	}
	r.ecfg.GlobStar = r.opts[optGlobStar]
	r.ecfg.DotGlob = r.opts[optDotGlob]
	r.ecfg.NoCaseGlob = r.opts[optNoCaseGlob]
	r.ecfg.NullGlob = r.opts[optNullGlob]
	r.ecfg.NoUnset = r.opts[optNoUnset]
	r.ecfg.ExtGlob = r.opts[optExtGlob]
}

func (r *Runner) expandErr(err error) {
	if err == nil {
		return
	}
	errMsg := err.Error()
	fmt.Fprintln(r.stderr, errMsg)
	_, unsetParam := errors.AsType[expand.UnsetParameterError](err)
	switch {
	case unsetParam:
		// ptc: bash -c exits with 127 after ${x?} or set -u fails.
		r.exit.code = 127
		r.exit.exiting = true
	case errMsg == "invalid indirect expansion":
		// ptc: bash abandons the top-level command and goes on.
		r.exit.code = 1
		r.exit.aborting = true
	case isArithmError(err): // ptc: bash abandons the top-level command
		r.exit.code = 1
		r.exit.aborting = !r.ptc.softArith
	case errors.Is(err, errReadOnly):
		// Like in bash, assigning to a read-only variable fails
		// the command at hand without exiting the shell.
		r.exit.code = 1
	}
}

func (r *Runner) arithm(expr syntax.ArithmExpr) int {
	n, err := expand.Arithm(r.ecfg, expr)
	r.arithErr(err) // ptc: see ptc_errors.go
	return n
}

func (r *Runner) fields(words ...*syntax.Word) []string {
	strs, err := expand.Fields(r.ecfg, words...)
	r.expandErr(err)
	return strs
}

func (r *Runner) literal(word *syntax.Word) string {
	str, err := expand.Literal(r.ecfg, word)
	r.expandErr(err)
	return str
}

func (r *Runner) document(word *syntax.Word) string {
	str, err := expand.Document(r.ecfg, word)
	r.expandErr(err)
	return str
}

func (r *Runner) pattern(word *syntax.Word) string {
	str, err := expand.Pattern(r.ecfg, word)
	r.expandErr(err)
	return str
}

// expandEnviron exposes [Runner]'s variables to the expand package.
type expandEnv struct {
	r *Runner
}

var _ expand.WriteEnviron = expandEnv{}

func (e expandEnv) Get(name string) expand.Variable {
	return e.r.lookupVar(name)
}

func (e expandEnv) Set(name string, vr expand.Variable) error {
	return e.r.setVarErr(name, vr)
}

func (e expandEnv) Each(fn func(name string, vr expand.Variable) bool) {
	e.r.writeEnv.Each(fn)
}

var todoPos syntax.Pos // for handlerCtx callers where we don't yet have a position

func (r *Runner) handlerCtx(ctx context.Context, kind handlerKind, pos syntax.Pos) context.Context {
	if kind == handlerKindExec || kind == handlerKindOpen {
		flushReadAhead() // ptc: they may read the file read took a block of (ptc_readahead.go)
	}
	hc := HandlerContext{
		runner:         r,
		kind:           kind,
		Env:            &overlayEnviron{parent: r.writeEnv},
		Dir:            r.Dir,
		Pos:            pos,
		Stdout:         r.stdout,
		Stderr:         r.stderr,
		LastExitStatus: int(r.lastExit.code),
	}
	if r.stdin != nil { // do not leave hc.Stdin as a typed nil
		hc.Stdin = r.stdin
		if m, ok := r.stdin.(memReader); ok {
			hc.Stdin = m.Reader // ptc: a redirected file as itself, so builtins can Stat and Seek it as GNU's do
		}
	}
	return context.WithValue(ctx, handlerCtxKey{}, hc)
}

func (r *Runner) out(s string) {
	io.WriteString(r.stdout, s)
}

func (r *Runner) outf(format string, a ...any) {
	fmt.Fprintf(r.stdout, format, a...)
}

func (r *Runner) errf(format string, a ...any) {
	fmt.Fprintf(r.stderr, format, a...)
}

func (r *Runner) stop(ctx context.Context) bool {
	// Some traps trigger on exit, so we do want those to run.
	if !r.handlingTrap && (r.exit.returning || r.exit.exiting || r.exit.aborting) {
		return true
	}
	if err := ctx.Err(); err != nil {
		r.exit.fatal(err)
		return true
	}
	if r.opts[optNoExec] {
		return true
	}
	return false
}

func (r *Runner) stmt(ctx context.Context, st *syntax.Stmt) {
	if r.stop(ctx) {
		return
	}
	r.exit = exitStatus{}
	if st.Background || st.Disown {
		r2 := r.subshell(true)
		st2 := *st
		st2.Background = false
		st2.Disown = false
		bg := bgProc{
			done: make(chan struct{}),
			exit: new(exitStatus),
		}
		r.bgProcs = append(r.bgProcs, bg)
		go func() {
			r2.Run(ctx, &st2)
			r2.exit.exiting, r2.exit.aborting = false, false // subshells don't exit the parent shell (ptc: nor abort its command)
			*bg.exit = r2.exit
			close(bg.done)
		}()
	} else {
		r.stmtSync(ctx, st)
	}
	r.lastExit = r.exit
}

func (r *Runner) stmtSync(ctx context.Context, st *syntax.Stmt) {
	oldIn, oldOut, oldErr := r.stdin, r.stdout, r.stderr
	// ptc: descriptors above 2 and process substitutions (ptc_fds.go).
	savedFDs, procMark := r.saveFDs(st.Redirs), len(r.ptc.procs)
	oldTrace, oldOuter := r.ptc.traceErr, r.ptc.outerOut
	r.ptc.traceErr, r.ptc.outerOut = oldErr, oldOut // set -x and >(…) write where the statement did before its redirections
	var closers []io.Closer
	for _, rd := range st.Redirs {
		cls, err := r.redir(ctx, rd)
		if err != nil {
			if !r.exit.fatalExit {
				// A fatal error from a handler is reported by [Runner.Run].
				r.errf("%v\n", err)
			}
			r.exit.code = 1
			break
		}
		if cls != nil {
			closers = append(closers, cls)
		}
	}
	if r.exit.ok() && st.Cmd != nil {
		r.cmd(ctx, st.Cmd)
		switch st.Cmd.(type) {
		case *syntax.CallExpr, *syntax.ArithmCmd, *syntax.TestClause, *syntax.DeclClause, *syntax.LetClause:
			r.setPipeStatus1(int(r.exit.code)) // ptc: ptc_loops.go
		}
	}
	if st.Negated {
		if r.exit.ok() {
			r.exit.code = 1
		} else {
			r.exit.clear()
		}
	} else if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) {
	} else if !r.exit.ok() && !r.noErrExit && !r.exit.exempt {
		r.trapCallback(ctx, r.callbackErr, "error")
		// If the "errexit" option is set and a command failed, exit the shell. Exceptions:
		//
		//   conditions (if <cond>, while <cond>, etc)
		//   part of && or || lists; excluded via "else" above
		//   preceded by !; excluded via "else" above
		if r.opts[optErrExit] {
			r.exit.exiting = true
		}
	}
	if r.keepRedirs {
		// The exec builtin made this statement's redirections apply to the
		// shell itself, so don't undo them and keep their files open.
		r.keepRedirs = false
		r.keepFDs(savedFDs)
	} else if len(st.Redirs) > 0 {
		r.restoreFDs(savedFDs)
		r.stdin, r.stdout, r.stderr = oldIn, oldOut, oldErr
		for _, cls := range closers {
			cls.Close()
		}
	}
	r.ptc.traceErr, r.ptc.outerOut = oldTrace, oldOuter
	r.endProcSubsts(procMark)
}

func (r *Runner) cmd(ctx context.Context, cm syntax.Command) {
	if r.stop(ctx) {
		return
	}

	tracingEnabled := r.opts[optXTrace]
	trace := r.tracer()

	switch cm := cm.(type) {
	case *syntax.Block:
		r.stmts(ctx, cm.Stmts)
	case *syntax.Subshell:
		r2 := r.subshell(false)
		r2.stmts(ctx, cm.Stmts)
		r2.exit.exiting, r2.exit.aborting = false, false // subshells don't exit the parent shell (ptc: nor abort its command)
		r.exit = r2.exit
	case *syntax.CallExpr:
		// Build new slices, to not modify the caller's AST
		// nor the slices in the alias map.
		// ptc: bash's alias rules (ptc_alias.go).
		args, aliasText := r.aliasCall(cm)
		if aliasText != "" {
			r.runAliasText(ctx, aliasText)
			break
		}
		r.lastExpandExit = exitStatus{}
		fields := r.fields(args...)
		if len(fields) == 0 {
			for _, as := range cm.Assigns {
				name := as.Name.Value

				prev := r.lookupVar(name)
				// Here we have a naked "foo=bar", so if we inherited a local var from a parent
				// function we want to signal that we are modifying the parent var rather than
				// creating a new local var via "local foo=bar".
				// TODO: there is likely a better way to do this.
				prev.Local = false

				name, vr := r.assignVal(name, prev, as, "")
				r.setVarWithIndex(prev, name, as.Index, vr)

				if !tracingEnabled {
					continue
				}

				// Strangely enough, it seems like Bash prints original
				// source for arrays, but the expanded value otherwise.
				// Note that, unlike bash, we print neither the subscript
				// in `x[i]=y` nor just the appended value in `x+=y`.
				if as.Array != nil {
					trace.expr(as)
				} else if as.Value != nil {
					trace.stringf("%s=%s", name, quoteBash(vr.String()))
				}
				trace.newLineFlush()
			}
			// If interpreting the last expansion like $(foo) failed,
			// and the expansion and assignments otherwise succeeded,
			// we need to surface that last exit code.
			if r.exit.ok() {
				r.exit = r.lastExpandExit
			}
			break
		}

		type restoreVar struct {
			name string
			vr   expand.Variable
		}
		var restores []restoreVar

		for _, as := range cm.Assigns {
			name := as.Name.Value
			prev := r.lookupVar(name)
			// Resolve any nameref so we can restore the original final value later on.
			if n, v := prev.Resolve(r.writeEnv); n != "" {
				name, prev = n, v
			}

			name, vr := r.assignVal(name, prev, as, "")
			// Inline command vars are always exported.
			vr.Exported = true

			restores = append(restores, restoreVar{name, prev})

			r.setVar(name, vr)
		}

		trace.call(fields[0], fields[1:]...)
		trace.newLineFlush()

		r.call(ctx, cm.Args[0].Pos(), fields)
		for _, restore := range restores {
			r.setVar(restore.name, restore.vr)
		}
		r.setLastArg(fields) // ptc: $_ (ptc_vars.go)
	case *syntax.BinaryCmd:
		switch cm.Op {
		case syntax.AndStmt, syntax.OrStmt:
			oldNoErrExit := r.noErrExit
			r.noErrExit = true
			r.stmt(ctx, cm.X)
			r.noErrExit = oldNoErrExit
			if r.exit.ok() == (cm.Op == syntax.AndStmt) {
				r.stmt(ctx, cm.Y)
			} else if !r.exit.ok() {
				r.exit.exempt = true // ptc: see exitStatus.exempt
			}
		case syntax.Pipe, syntax.PipeAll:
			pr, pw, err := newPipe()
			if err != nil {
				r.exit.fatal(err) // not being able to create a pipe is rare but critical
				return
			}
			r2 := r.subshell(true)
			r2.stdout = pw
			if cm.Op == syntax.PipeAll {
				r2.stderr = pw
			} else {
				r2.stderr = r.stderr
			}
			oldIn := r.stdin
			r.stdin = pr
			var wg sync.WaitGroup
			wg.Go(func() {
				r2.stmt(ctx, cm.X)
				r2.exit.exiting, r2.exit.aborting = false, false // subshells don't exit the parent shell (ptc: nor abort its command)
				pw.Close()
			})
			// ptc: the last stage runs in a subshell too unless lastpipe
			// is on, as in bash (echo x | read v leaves v unset).
			last := r
			if !r.lastPipe() {
				last = r.subshell(false)
			}
			last.stmt(ctx, cm.Y)
			if last != r {
				last.exit.exiting, last.exit.aborting = false, false
				r.exit = last.exit
			}
			pr.Close()
			wg.Wait()
			r.stdin = oldIn
			r.setPipeStatus(append(stageStatuses(r2, cm.X), int(r.exit.code)))
			if r.opts[optPipeFail] && !r2.exit.ok() && r.exit.ok() {
				r.exit = r2.exit
			}
			if r2.exit.fatalExit {
				r.exit.fatal(r2.exit.err) // surface fatal errors immediately
			}
		}
	case *syntax.IfClause:
		oldNoErrExit := r.noErrExit
		r.noErrExit = true
		r.stmts(ctx, cm.Cond)
		r.noErrExit = oldNoErrExit

		if r.exit.ok() {
			r.stmts(ctx, cm.Then)
			break
		}
		r.exit.clear()
		if cm.Else != nil {
			r.cmd(ctx, cm.Else)
		}
	case *syntax.WhileClause:
		for !r.stop(ctx) {
			oldNoErrExit := r.noErrExit
			r.noErrExit = true
			// ptc: break and continue in the condition act on this loop;
			// upstream ran `while break` forever.
			broken := r.loopStmtsBroken(ctx, cm.Cond)
			r.noErrExit = oldNoErrExit
			if broken {
				break
			}

			stop := r.exit.ok() == cm.Until
			r.exit.clear()
			if stop || r.loopStmtsBroken(ctx, cm.Do) {
				break
			}
		}
	case *syntax.ForClause:
		switch y := cm.Loop.(type) {
		case *syntax.WordIter:
			name := y.Name.Value
			if !syntax.ValidName(name) {
				r.errf("`%s': not a valid identifier\n", name) // ptc
				r.exit.code = 1
				break
			}
			items := r.Params // for i; do ...

			inToken := y.InPos.IsValid()
			if inToken {
				items = r.fields(y.Items...) // for i in ...; do ...
			}

			if cm.Select {
				ps3 := cmp.Or(r.envGet(shellReplyPS3Var), shellDefaultPS3)

				for menu := true; ; {
					if menu {
						// display menu
						for i, word := range items {
							r.errf("%d) %v\n", i+1, word)
						}
						menu = false
					}
					r.errf("%s", ps3)

					line, err := r.readLine(ctx, true)
					if err != nil {
						r.errf("\n")
						r.exit.code = 1
						break
					}
					if len(line) == 0 {
						menu = true // no reply; show the menu again
						continue
					}

					reply := string(line)
					r.setVarString(shellReplyVar, reply)

					if c, _ := strconv.Atoi(reply); c > 0 && c <= len(items) {
						r.setVarString(name, items[c-1])
					} else {
						r.setVarString(name, "")
					}

					// execute commands until break or return is encountered
					if r.loopStmtsBroken(ctx, cm.Do) {
						break
					}
				}
				break
			}

			for _, field := range items {
				r.setVarString(name, field)
				trace.stringf("for %s in", y.Name.Value)
				if inToken {
					for _, item := range y.Items {
						trace.string(" ")
						trace.expr(item)
					}
				} else {
					trace.string(` "$@"`)
				}
				trace.newLineFlush()
				if r.loopStmtsBroken(ctx, cm.Do) {
					break
				}
			}
		case *syntax.CStyleLoop:
			if y.Init != nil {
				r.arithm(y.Init)
			}
			for y.Cond == nil || r.arithm(y.Cond) != 0 {
				if !r.exit.ok() || r.loopStmtsBroken(ctx, cm.Do) {
					break
				}
				if y.Post != nil {
					r.arithm(y.Post)
				}
			}
		}
	case *syntax.FuncDecl:
		if cm.Name == nil { // e.g. zsh's anonymous or multi-name functions
			r.errf("unsupported\n")
			r.exit.code = 1
			break
		}
		r.setFunc(cm.Name.Value, cm.Body)
	case *syntax.ArithmCmd:
		r.exit.oneIf(r.arithm(cm.X) == 0)
	case *syntax.LetClause:
		if tracingEnabled {
			trace.string("let")
			for _, expr := range cm.Exprs {
				trace.stringf(" %s", r.letArgString(trace.printer, expr))
			}
			trace.newLineFlush()
		}
		var val int
		for _, expr := range cm.Exprs {
			val = r.arithm(expr)
		}
		r.exit.oneIf(val == 0)
	case *syntax.CaseClause:
		trace.string("case ")
		trace.expr(cm.Word)
		trace.string(" in")
		trace.newLineFlush()
		str := r.literal(cm.Word)
		runNext := false // whether the previous item ended with ";&"
		for _, ci := range cm.Items {
			if !runNext && !slices.ContainsFunc(ci.Patterns, func(word *syntax.Word) bool {
				return r.match(r.pattern(word), str)
			}) {
				continue
			}
			r.stmts(ctx, ci.Stmts)
			switch ci.Op {
			case syntax.Fallthrough: // ";&" runs the next item unconditionally
				runNext = true
			case syntax.Resume, syntax.ResumeKorn: // ";;&" and ";|" resume matching
				runNext = false
			default: // ";;" or the last item stop
				return
			}
		}
	case *syntax.TestClause:
		// ptc: an arithmetic error inside [[ ]] fails the test only.
		soft := r.ptc.softArith
		r.ptc.softArith = true
		res := r.bashTest(ctx, cm.X, false)
		r.ptc.softArith = soft
		if res == "" && r.exit.ok() {
			// to preserve exit status code 2 for regex errors, etc
			r.exit.code = 1
		}
	case *syntax.DeclClause:
		local, global := false, false
		var modes []string
		valType := ""
		declQuery := "" // "-f" or "-p" for query mode
		switch cm.Variant.Value {
		case "declare":
			// When used in a function, "declare" acts as "local"
			// unless the "-g" option is used.
			local = r.inFunc
		case "local":
			if !r.inFunc {
				r.errf("local: can only be used in a function\n")
				r.exit.code = 1
				return
			}
			local = true
		case "export":
			modes = append(modes, "-x")
		case "readonly":
			modes = append(modes, "-r")
		case "nameref":
			valType = "-n"
		}
	assignLoop:
		for as := range r.flattenAssigns(cm.Args) {
			fp := flagParser{remaining: []string{as.Name.Value}}
			isFlags := false // ptc: every letter of -Ar counts; upstream took the first
			for fp.more() {
				isFlags = true
				switch flag := fp.flag(); flag {
				case "-x", "-r", "+x":
					modes = append(modes, flag)
				case "-n":
					if cm.Variant.Value == "export" {
						modes = append(modes, "+x") // ptc: export -n unexports
					} else {
						valType = flag
					}
				case "-a", "-A":
					valType = flag
				case "-g":
					global = true
				case "-f", "-p":
					declQuery = flag
				default:
					r.errf("declare: invalid option %q\n", flag)
					r.exit.code = 2
					return
				}
			}
			if isFlags {
				continue assignLoop
			}
			name := as.Name.Value
			if !syntax.ValidName(name) {
				r.errf("declare: invalid name %q\n", name)
				r.exit.code = 1
				return
			}
			if declQuery == "-f" {
				// declare -f name: print function definition.
				// Bash silently returns exit 1 for missing functions.
				if body := r.Funcs[name]; body != nil {
					r.outf("%s()\n", name)
					printer := syntax.NewPrinter()
					var buf bytes.Buffer
					printer.Print(&buf, body)
					r.outf("%s\n", buf.String())
				} else {
					r.exit.code = 1
				}
				continue
			}
			if declQuery == "-p" {
				// declare -p name: print variable with attributes.
				vr := r.lookupVar(name)
				if !vr.Declared() {
					r.errf("declare: %s: not found\n", name)
					r.exit.code = 1
					continue
				}
				if !vr.IsSet() {
					// ptc: declared without a value, as bash prints it.
					r.outf("declare -%s %s\n", cmp.Or(vr.Flags(), "-"), name)
					continue
				}
				flags := vr.Flags()
				if flags == "" {
					flags = "-"
				}
				switch vr.Kind {
				case expand.Indexed:
					r.outf("declare -%s %s=(", flags, name)
					for i, v := range vr.List {
						if i > 0 {
							r.out(" ")
						}
						idx := i
						if vr.Indexes != nil {
							idx = vr.Indexes[i]
						}
						r.outf("[%d]=%s", idx, dquote(v)) // ptc: bash's quoting
					}
					r.out(")\n")
				case expand.Associative:
					r.outf("declare -%s %s=(", flags, name)
					// ptc: bash's order and quoting, and its trailing space.
					for _, k := range expand.AssocKeys(vr.Map) {
						r.outf("[%s]=%s ", assocKeyText(k), dquote(vr.Map[k]))
					}
					r.out(")\n")
				default:
					r.outf("declare -%s %s=%s\n", flags, name, dquote(vr.Str)) // ptc: bash's quoting
				}
				continue
			}
			vr := r.lookupVar(name)
			if as.Naked && local && !global && !vr.Local {
				// ptc: `local x` / `local -a x` in a function makes a new,
				// unset variable that hides the global one, as in bash.
				vr = expand.Variable{}
				switch valType {
				case "-a":
					vr.Kind = expand.Indexed
				case "-A":
					vr.Kind = expand.Associative
				}
			} else if as.Naked {
				if valType == "-A" {
					vr.Kind = expand.Associative
				} else if valType == "-a" && !vr.Declared() {
					vr.Kind = expand.Indexed // ptc: declare -a x makes an (empty) array
				} else {
					vr.Kind = expand.KeepValue
				}
			} else {
				name, vr = r.assignVal(name, vr, as, valType)
			}
			if global {
				vr.Local = false
			} else if local {
				vr.Local = true
			}
			for _, mode := range modes {
				switch mode {
				case "-x":
					vr.Exported = true
				case "+x":
					vr.Exported = false
				case "-r":
					vr.ReadOnly = true
				}
			}
			r.setVar(name, vr)
		}
	case *syntax.TimeClause:
		start := time.Now()
		if cm.Stmt != nil {
			r.stmt(ctx, cm.Stmt)
		}
		format := "%s\t%s\n"
		if cm.PosixFormat {
			format = "%s %s\n"
		} else {
			r.errf("\n")
		}
		// ptc: time reports on stderr, as in bash.
		real := time.Since(start)
		r.errf(format, "real", elapsedString(real, cm.PosixFormat))
		// TODO: can we do these?
		r.errf(format, "user", elapsedString(0, cm.PosixFormat))
		r.errf(format, "sys", elapsedString(0, cm.PosixFormat))
	default:
		// Should only happen if we forgot a case above.
		r.errf("unhandled command node: %T\n", cm)
		r.exit.code = 1
	}
}

func (r *Runner) trapCallback(ctx context.Context, callback, name string) {
	if callback == "" {
		return // nothing to do
	}
	if r.handlingTrap {
		return // don't recurse, as that could lead to cycles
	}
	r.handlingTrap = true
	defer func() { r.handlingTrap = false }()

	p := syntax.NewParser()
	// TODO: do this parsing when "trap" is called?
	file, err := p.Parse(strings.NewReader(callback), name+" trap")
	if err != nil {
		r.errf(name+"trap: %v\n", err)
		// ignore errors in the callback
		return
	}
	oldExit, oldLastExit := r.exit, r.lastExit
	r.lastExit = r.exit
	r.stmts(ctx, file.Stmts)
	if r.exit.exiting && !r.exit.fatalExit {
		r.lastExit = oldLastExit // ptc: `exit N` in a trap sets the shell's status, as in bash
		return
	}
	r.exit, r.lastExit = oldExit, oldLastExit // traps on EXIT or ERR should not modify the result
}

func (r *Runner) flattenAssigns(args []*syntax.Assign) iter.Seq[*syntax.Assign] {
	return func(yield func(*syntax.Assign) bool) {
		for _, as := range args {
			// Convert "declare $x" into "declare value".
			// Don't use syntax.Parser here, as we only want the basic
			// splitting by '='.
			if as.Name != nil {
				if !yield(as) {
					return
				}
				continue
			}
			for _, field := range r.fields(as.Value) {
				as := &syntax.Assign{}
				name, val, ok := strings.Cut(field, "=")
				as.Name = &syntax.Lit{Value: name}
				if !ok {
					as.Naked = true
				} else {
					// ptc: the value is already expanded; quote it so a
					// tilde in it stays (readonly "$binding").
					as.Value = &syntax.Word{Parts: []syntax.WordPart{
						&syntax.SglQuoted{Value: val},
					}}
				}
				if !yield(as) {
					return
				}
			}
		}
	}
}

// letArgString reproduces one expression of a let clause as bash would print it
// when tracing, that is, as the single quoted word that bash's let receives.
func (r *Runner) letArgString(printer *syntax.Printer, expr syntax.ArithmExpr) string {
	if word, ok := expr.(*syntax.Word); ok {
		return quoteBash(r.literal(word))
	}
	// The printer only prints an arithmetic expression as part of a parent node,
	// so print a let clause holding just this expression and drop the keyword.
	// The keyword borrows the expression's position to stay on the same line.
	// TODO: drop this workaround if [syntax.Printer.Print] learns to print
	// an arithmetic expression on its own.
	var sb strings.Builder
	if err := printer.Print(&sb, &syntax.LetClause{
		Let:   expr.Pos(),
		Exprs: []syntax.ArithmExpr{expr},
	}); err != nil { // should never happen
		panic(err)
	}
	return strings.TrimPrefix(sb.String(), "let ")
}

func (r *Runner) match(pat, name string) bool {
	matcher, err := internal.ExtendedPatternMatcher(pat, pattern.EntireString|pattern.ExtendedOperators)
	if err != nil {
		// A malformed pattern simply does not match, like in bash.
		// Any other error, such as an unsupported extended pattern, is reported.
		if _, ok := errors.AsType[*pattern.SyntaxError](err); !ok {
			r.expandErr(err)
		}
		return false
	}
	return matcher(name)
}

func elapsedString(d time.Duration, posix bool) string {
	if posix {
		return fmt.Sprintf("%.2f", d.Seconds())
	}
	mins := int(d.Minutes())
	sec := math.Mod(d.Seconds(), 60.0)
	return fmt.Sprintf("%dm%.3fs", mins, sec)
}

func (r *Runner) stmts(ctx context.Context, stmts []*syntax.Stmt) {
	for _, stmt := range stmts {
		r.stmt(ctx, stmt)
	}
}

func (r *Runner) hdocReader(rd *syntax.Redirect) (stdinFile, error) {
	pr, pw, err := newPipe()
	if err != nil {
		return nil, err
	}
	hdoc := r.hdocString(rd)
	// We write to the pipe in a new goroutine,
	// as pipe writes may block once the buffer gets full.
	// We still construct and buffer the entire heredoc first,
	// as doing it concurrently would lead to different semantics and be racy.
	go func() {
		io.WriteString(pw, hdoc)
		pw.Close()
	}()
	return pr, nil
}

// hdocQuotedDelim reports whether a here-document delimiter word is quoted,
// as in "<<'EOF'" or "<<\EOF", which makes its body literal.
func hdocQuotedDelim(word *syntax.Word) bool {
	for _, wp := range word.Parts {
		switch wp := wp.(type) {
		case *syntax.Lit:
			if strings.Contains(wp.Value, "\\") {
				return true
			}
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		}
	}
	return false
}

// hdocWord returns a here-document body, or one of its lines, as a string.
// A quoted delimiter, as in "<<'EOF'", makes the body literal,
// in which case the parser only gives us literal parts.
// Note that a partly quoted delimiter, such as "<<'A'B",
// is not spotted by the parser either, so we still expand its body.
func (r *Runner) hdocWord(word *syntax.Word, quoted bool) string {
	if quoted {
		if lit := word.Lit(); lit != "" {
			return lit
		}
	}
	return r.document(word)
}

// hdocString returns the body of a here-document as a string.
func (r *Runner) hdocString(rd *syntax.Redirect) string {
	if rd.Hdoc == nil {
		return "" // an empty here-document
	}
	quoted := hdocQuotedDelim(rd.Word)
	if rd.Op != syntax.DashHdoc {
		return r.hdocWord(rd.Hdoc, quoted)
	}
	// Strip the leading tabs from each line.
	var buf strings.Builder
	var cur []syntax.WordPart
	flushLine := func() {
		if buf.Len() > 0 {
			buf.WriteByte('\n')
		}
		buf.WriteString(r.hdocWord(&syntax.Word{Parts: cur}, quoted))
		cur = cur[:0]
	}
	for _, wp := range rd.Hdoc.Parts {
		lit, ok := wp.(*syntax.Lit)
		if !ok {
			cur = append(cur, wp)
			continue
		}
		first := true
		for part := range strings.SplitSeq(lit.Value, "\n") {
			if !first {
				flushLine()
			}
			first = false
			part = strings.TrimLeft(part, "\t")
			cur = append(cur, &syntax.Lit{Value: part})
		}
	}
	flushLine()
	return buf.String()
}

// redir performs one redirection. ptc: ours (ptc_fds.go) knows
// descriptors above 2, {var}, N>&M-, <>, >| and noclobber; upstream's
// refuses every descriptor but 0, 1 and 2.
func (r *Runner) redir(ctx context.Context, rd *syntax.Redirect) (io.Closer, error) {
	return r.ptcRedir(ctx, rd)
}

func (r *Runner) upstreamRedir(ctx context.Context, rd *syntax.Redirect) (io.Closer, error) {
	// Note that Hdoc is nil for an empty here-document.
	if rd.Op == syntax.Hdoc || rd.Op == syntax.DashHdoc {
		pr, err := r.hdocReader(rd)
		if err != nil {
			return nil, err
		}
		r.stdin = pr
		return pr, nil
	}

	orig := &r.stdout
	if rd.N != nil {
		switch rd.N.Value {
		case "0":
			// Note that the input redirects below always use stdin (0)
			// because we don't support anything else right now.
		case "1":
			// The default for the output redirects below.
		case "2":
			orig = &r.stderr
		default:
			return nil, fmt.Errorf("unsupported redirect fd: %v", rd.N.Value)
		}
	}
	arg := r.literal(rd.Word)
	switch rd.Op {
	case syntax.WordHdoc:
		pr, pw, err := newPipe()
		if err != nil {
			return nil, err
		}
		r.stdin = pr
		// We write to the pipe in a new goroutine,
		// as pipe writes may block once the buffer gets full.
		go func() {
			io.WriteString(pw, arg)
			io.WriteString(pw, "\n")
			pw.Close()
		}()
		return pr, nil
	case syntax.DplOut:
		switch arg {
		case "1":
			*orig = r.stdout
		case "2":
			*orig = r.stderr
		case "-":
			*orig = io.Discard // closing the output writer
		default:
			return nil, fmt.Errorf("unhandled %v arg: %q", rd.Op, arg)
		}
		return nil, nil
	case syntax.RdrIn, syntax.RdrOut, syntax.AppOut,
		syntax.RdrAll, syntax.AppAll:
		// done further below
	case syntax.DplIn:
		switch arg {
		case "-":
			r.stdin = nil // closing the input file
		default:
			return nil, fmt.Errorf("unhandled %v arg: %q", rd.Op, arg)
		}
		return nil, nil
	default:
		return nil, fmt.Errorf("unhandled redirect op: %v", rd.Op)
	}
	mode := os.O_RDONLY
	switch rd.Op {
	case syntax.AppOut, syntax.AppAll:
		mode = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	case syntax.RdrOut, syntax.RdrAll:
		mode = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := r.open(ctx, arg, mode, 0o644, false)
	if err != nil {
		return nil, err
	}
	switch rd.Op {
	case syntax.RdrIn:
		stdin, err := newStdinFile(f)
		if err != nil {
			return nil, err
		}
		r.stdin = stdin
	case syntax.RdrOut, syntax.AppOut:
		*orig = f
	case syntax.RdrAll, syntax.AppAll:
		r.stdout = f
		r.stderr = f
	default:
		return nil, fmt.Errorf("unhandled redirect op: %v", rd.Op)
	}
	return f, nil
}

func (r *Runner) loopStmtsBroken(ctx context.Context, stmts []*syntax.Stmt) bool {
	oldInLoop := r.inLoop
	r.inLoop = true
	defer func() { r.inLoop = oldInLoop }()
	for _, stmt := range stmts {
		r.stmt(ctx, stmt)
		if r.contnEnclosing > 0 {
			r.contnEnclosing--
			return r.contnEnclosing > 0
		}
		if r.breakEnclosing > 0 {
			r.breakEnclosing--
			return true
		}
	}
	return false
}

func (r *Runner) call(ctx context.Context, pos syntax.Pos, args []string) {
	if r.stop(ctx) {
		return
	}
	if r.callHandler != nil {
		var err error
		args, err = r.callHandler(r.handlerCtx(ctx, handlerKindCall, pos), args)
		if err != nil {
			// handler's custom fatal error
			r.exit.fatal(err)
			return
		}
	}
	name := args[0]
	if body := r.Funcs[name]; body != nil {
		if !r.enterFunc(name) { // ptc: nesting limit (ptc_limits.go)
			return
		}
		defer r.leaveFunc()
		// stack them to support nested func calls
		oldParams := r.Params
		r.Params = args[1:]
		oldInFunc := r.inFunc
		r.inFunc = true

		// Functions run in a nested scope.
		// Note that [Runner.exec] below does something similar.
		origEnv := r.writeEnv
		r.writeEnv = &overlayEnviron{parent: r.writeEnv, funcScope: true}

		r.inFuncNamed(name, func() { r.stmt(ctx, body) }) // ptc: FUNCNAME

		r.writeEnv = origEnv

		r.Params = oldParams
		r.inFunc = oldInFunc
		r.exit.returning = false
		return
	}
	if IsBuiltin(name) {
		r.exit = r.builtin(ctx, pos, name, args[1:])
		return
	}
	r.exec(ctx, pos, args)
}

func (r *Runner) exec(ctx context.Context, pos syntax.Pos, args []string) {
	r.exit.fromHandlerError(r.execHandler(r.handlerCtx(ctx, handlerKindExec, pos), args))
}

func (r *Runner) open(ctx context.Context, path string, flags int, mode os.FileMode, print bool) (io.ReadWriteCloser, error) {
	// If we are opening a FIFO temporary file created by the interpreter itself,
	// don't pass this along to the open handler as it will not work at all
	// unless [os.OpenFile] is used directly with it.
	// Matching by directory and basename prefix isn't perfect, but works.
	//
	// If we want FIFOs to use a handler in the future, they probably
	// need their own separate handler API matching Unix-like semantics.
	dir, name := filepath.Split(path)
	dir = strings.TrimSuffix(dir, "/")
	if dir == r.tempDir && strings.HasPrefix(name, fifoNamePrefix) {
		return os.OpenFile(path, flags, mode)
	}
	// ptc: /dev/stdin, /dev/stdout, /dev/stderr and /dev/fd/N are the
	// shell's own descriptors (ptc_fds.go).
	if f, ok, err := r.openDev(path); ok {
		if err != nil && print {
			r.errf("%v\n", err)
		}
		return f, err
	}

	f, err := r.openHandler(r.handlerCtx(ctx, handlerKindOpen, todoPos), path, flags, mode)
	// TODO: support wrapped PathError returned from openHandler.
	switch err.(type) {
	case nil:
		return f, nil
	case *os.PathError:
		if print {
			r.errf("%v\n", err)
		}
	default: // handler's custom fatal error
		r.exit.fatal(err)
	}
	return nil, err
}

func (r *Runner) stat(ctx context.Context, name string) (fs.FileInfo, error) {
	path := absPath(r.Dir, name)
	return r.statHandler(r.handlerCtx(ctx, handlerKindStat, todoPos), path, true)
}

func (r *Runner) lstat(ctx context.Context, name string) (fs.FileInfo, error) {
	path := absPath(r.Dir, name)
	return r.statHandler(r.handlerCtx(ctx, handlerKindStat, todoPos), path, false)
}

func (r *Runner) access(ctx context.Context, name string, mode AccessMode) error {
	path := absPath(r.Dir, name)
	return r.accessHandler(r.handlerCtx(ctx, handlerKindAccess, todoPos), path, mode)
}
