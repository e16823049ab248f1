// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). Bash substitutes an
// alias's text before parsing; upstream keeps only aliases whose value
// parses as plain words, so alias t='a | b', alias t='a && b; c' and
// aliases holding here-documents were refused ("could not parse") and the
// command then ran as "t: command not found". Here such an alias's text,
// followed by the rest of the command, is parsed and run when the alias is
// used. Alias expansion also follows bash's other rules: the first word of
// a replacement is itself expanded (once per alias), and an alias defined
// on a line is not in effect until the next line.

package interp

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// aliasCall expands the aliases of a simple command. It returns the words
// to run, or, for an alias that is more than words, the source text to
// parse and run instead.
func (r *Runner) aliasCall(cm *syntax.CallExpr) (args []*syntax.Word, text string) {
	args = cm.Args
	if !r.opts[optExpandAliases] || len(r.alias) == 0 {
		return args, ""
	}
	seen := map[string]bool{}
	for i := 0; i < len(args); {
		name := args[i].Lit()
		als, ok := r.alias[name]
		if !ok || seen[name] || als.sameLine(args[i].Pos()) {
			break
		}
		seen[name] = true
		if als.complex {
			return nil, strings.TrimSpace(printWords(args[:i])+" "+als.src) + " " + printWords(args[i+1:])
		}
		args = slices.Concat(args[:i], als.args, args[i+1:])
		if als.blank {
			i += len(als.args)
		}
	}
	return args, ""
}

// sameLine reports whether pos is on the line that defined the alias,
// after the definition: bash has parsed that line before the alias exists.
func (a alias) sameLine(pos syntax.Pos) bool {
	return a.def.IsValid() && pos.Line() == a.def.Line() && pos.Offset() > a.def.Offset()
}

func printWords(words []*syntax.Word) string {
	if len(words) == 0 {
		return ""
	}
	var buf bytes.Buffer
	syntax.NewPrinter().Print(&buf, &syntax.CallExpr{Args: words})
	return buf.String()
}

// runAliasText runs the text a complex alias expanded to.
func (r *Runner) runAliasText(ctx context.Context, text string) {
	file, err := syntax.NewParser().Parse(strings.NewReader(text), "")
	if err != nil {
		r.errf("%v\n", err)
		r.exit.code = 2
		return
	}
	r.stmts(ctx, file.Stmts)
}

// ptcAlias is the alias builtin: bash's output format, sorted, status 1
// for a name that is not an alias, and values that are more than words.
func (r *Runner) ptcAlias(pos syntax.Pos, args []string) exitStatus {
	var exit exitStatus
	show := func(name string, als alias) {
		r.outf("alias %s='%s'\n", name, strings.ReplaceAll(als.src, "'", `'\''`))
	}
	if len(args) > 0 && args[0] == "-p" {
		args = args[1:]
		if len(args) == 0 {
			args = nil
		}
	}
	if len(args) == 0 {
		for _, name := range slices.Sorted(mapKeys(r.alias)) {
			show(name, r.alias[name])
		}
		return exit
	}
	for _, arg := range args {
		name, src, ok := strings.Cut(arg, "=")
		if !ok {
			als, ok := r.alias[name]
			if !ok {
				r.errf("alias: %s: not found\n", name)
				exit.code = 1
				continue
			}
			show(name, als)
			continue
		}
		als := alias{src: src, def: pos, blank: strings.TrimRight(src, " \t") != src}
		for w, err := range syntax.NewParser().WordsSeq(strings.NewReader(src)) {
			if err != nil {
				als.complex, als.args = true, nil
				break
			}
			als.args = append(als.args, w)
		}
		if !als.complex && strings.ContainsAny(src, "\n") {
			als.complex = true // alias x='a\nb': two commands
		}
		if r.alias == nil {
			r.alias = make(map[string]alias)
		}
		r.alias[name] = als
	}
	return exit
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// ptcUnalias is the unalias builtin: -a removes every alias, a name that
// is not an alias is an error, no argument is a usage error.
func (r *Runner) ptcUnalias(args []string) exitStatus {
	var exit exitStatus
	if len(args) == 0 {
		r.errf("unalias: usage: unalias [-a] name [name ...]\n")
		exit.code = 2
		return exit
	}
	if args[0] == "-a" {
		r.alias = nil
		return exit
	}
	for _, name := range args {
		if _, ok := r.alias[name]; !ok {
			r.errf("unalias: %s: not found\n", name)
			exit.code = 1
			continue
		}
		delete(r.alias, name)
	}
	return exit
}
