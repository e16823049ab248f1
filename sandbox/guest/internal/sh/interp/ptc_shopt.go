// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). It is bash's option
// surface: shopt with -p, -q and -o (upstream refuses -p and -q and every
// option it does not implement), set -o for all of bash's option names,
// `set` alone listing the variables, and $- with bash's letters. Options
// the interpreter does not implement are remembered and reported, as bash
// reports them, but change nothing.

package interp

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ptc-dev/ptc/sandbox/guest/internal/sh/expand"
)

// bashShopts are bash 5.2's shopt options with their defaults in a
// non-interactive shell.
var bashShopts = map[string]bool{
	"autocd": false, "assoc_expand_once": false, "cdable_vars": false, "cdspell": false,
	"checkhash": false, "checkjobs": false, "checkwinsize": true, "cmdhist": true,
	"compat31": false, "compat32": false, "compat40": false, "compat41": false,
	"compat42": false, "compat43": false, "compat44": false, "complete_fullquote": true,
	"direxpand": false, "dirspell": false, "dotglob": false, "execfail": false,
	"expand_aliases": false, "extdebug": false, "extglob": false, "extquote": true,
	"failglob": false, "force_fignore": true, "globasciiranges": true, "globskipdots": true,
	"globstar": false, "gnu_errfmt": false, "histappend": false, "histreedit": false,
	"histverify": false, "hostcomplete": true, "huponexit": false, "inherit_errexit": false,
	"interactive_comments": true, "lastpipe": false, "lithist": false, "localvar_inherit": false,
	"localvar_unset": false, "login_shell": false, "mailwarn": false, "no_empty_cmd_completion": false,
	"nocaseglob": false, "nocasematch": false, "noexpand_translation": false, "nullglob": false,
	"patsub_replacement": true, "progcomp": true, "progcomp_alias": false, "promptvars": true,
	"restricted_shell": false, "shift_verbose": false, "sourcepath": true, "varredir_close": false,
	"xpg_echo": false,
}

// bashSetOpts are the set -o names the interpreter does not implement,
// with their defaults, and the letter of those that have one.
var bashSetOpts = map[string]bool{
	"braceexpand": true, "emacs": false, "errtrace": false, "functrace": false,
	"hashall": true, "histexpand": false, "history": false, "ignoreeof": false,
	"interactive-comments": true, "keyword": false, "monitor": false, "nolog": false,
	"notify": false, "onecmd": false, "physical": false, "posix": false,
	"privileged": false, "verbose": false, "vi": false,
}

var setLetters = map[byte]string{
	'B': "braceexpand", 'E': "errtrace", 'T': "functrace", 'h': "hashall", 'H': "histexpand",
	'k': "keyword", 'm': "monitor", 'b': "notify", 't': "onecmd", 'P': "physical",
	'p': "privileged", 'v': "verbose",
}

// shoptValue reports the state of a shopt option; known is false for a
// name bash does not have.
func (r *Runner) shoptValue(name string) (on, known bool) {
	if p, supported := r.bashOptByName(name); p != nil && supported {
		return *p, true
	}
	def, ok := bashShopts[name]
	if !ok {
		return false, false
	}
	if v, set := r.ptc.shopts[name]; set {
		return v, true
	}
	return def, true
}

func (r *Runner) setShopt(name string, on bool) bool {
	if p, supported := r.bashOptByName(name); p != nil && supported {
		*p = on
		r.updateExpandOpts()
		return true
	}
	if _, ok := bashShopts[name]; !ok {
		return false
	}
	r.ptc.shopts = maps.Clone(r.ptc.shopts)
	if r.ptc.shopts == nil {
		r.ptc.shopts = map[string]bool{}
	}
	r.ptc.shopts[name] = on
	return true
}

// setOValue is like shoptValue for set -o names.
func (r *Runner) setOValue(name string) (on, known bool) {
	if p := r.posixOptByName(name); p != nil {
		return *p, true
	}
	def, ok := bashSetOpts[name]
	if !ok {
		return false, false
	}
	if v, set := r.ptc.setOpts[name]; set {
		return v, true
	}
	return def, true
}

func (r *Runner) setSetO(name string, on bool) bool {
	if p := r.posixOptByName(name); p != nil {
		*p = on
		r.updateExpandOpts()
		return true
	}
	if _, ok := bashSetOpts[name]; !ok {
		return false
	}
	r.ptc.setOpts = maps.Clone(r.ptc.setOpts)
	if r.ptc.setOpts == nil {
		r.ptc.setOpts = map[string]bool{}
	}
	r.ptc.setOpts[name] = on
	if on && (name == "vi" || name == "emacs") {
		r.ptc.setOpts[map[string]string{"vi": "emacs", "emacs": "vi"}[name]] = false
	}
	return true
}

func allSetONames() []string {
	names := slices.Collect(maps.Keys(bashSetOpts))
	for _, o := range posixOptsTable {
		names = append(names, o.name)
	}
	slices.Sort(names)
	return names
}

func (r *Runner) printOpt(name string, on, asCommand, setO bool) {
	switch {
	case asCommand && setO:
		r.outf("set %co %s\n", map[bool]byte{true: '-', false: '+'}[on], name)
	case asCommand:
		r.outf("shopt %s %s\n", map[bool]string{true: "-s", false: "-u"}[on], name)
	default:
		r.outf("%-15s\t%s\n", name, r.optStatusText(on))
	}
}

// ptcShopt is the shopt builtin.
func (r *Runner) ptcShopt(args []string) exitStatus {
	var exit exitStatus
	var set, unset, print, quiet, setO bool
	i := 0
	for ; i < len(args) && len(args[i]) > 1 && args[i][0] == '-'; i++ {
		if args[i] == "--" {
			i++
			break
		}
		for _, f := range args[i][1:] {
			switch f {
			case 's':
				set = true
			case 'u':
				unset = true
			case 'p':
				print = true
			case 'q':
				quiet = true
			case 'o':
				setO = true
			default:
				r.errf("shopt: -%c: invalid option\nshopt: usage: shopt [-pqsu] [-o] [optname ...]\n", f)
				exit.code = 2
				return exit
			}
		}
	}
	if set && unset {
		r.errf("shopt: cannot set and unset shell options simultaneously\n")
		exit.code = 1
		return exit
	}
	names := args[i:]
	value, change := r.shoptValue, r.setShopt
	invalid := "invalid shell option name"
	if setO {
		value, change, invalid = r.setOValue, r.setSetO, "invalid option name"
	}
	if len(names) == 0 {
		all := slices.Sorted(maps.Keys(bashShopts))
		if setO {
			all = allSetONames()
		}
		for _, n := range all {
			on, _ := value(n)
			if (set && !on) || (unset && on) {
				continue
			}
			if !quiet {
				r.printOpt(n, on, print, setO)
			}
		}
		return exit
	}
	for _, n := range names {
		on, known := value(n)
		if !known {
			r.errf("shopt: %s: %s\n", n, invalid)
			exit.code = 1
			continue
		}
		switch {
		case set || unset:
			change(n, set)
		case quiet:
			if !on {
				exit.code = 1
			}
		default:
			r.printOpt(n, on, print, setO)
			if !on {
				exit.code = 1
			}
		}
	}
	return exit
}

// ptcSet is the set builtin: bash's option names and letters on top of
// upstream's, and the variable listing of a bare `set`.
func (r *Runner) ptcSet(args []string) exitStatus {
	var exit exitStatus
	if len(args) == 0 {
		r.printVars()
		return exit
	}
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" || len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			rest = append(rest, args[i:]...)
			break
		}
		on := a[0] == '-'
		if a[1:] == "o" {
			if i+1 >= len(args) {
				for _, n := range allSetONames() {
					v, _ := r.setOValue(n)
					r.printOpt(n, v, !on, true)
				}
				continue
			}
			i++
			if !r.setSetO(args[i], on) {
				r.errf("set: %s: invalid option name\n", args[i])
				exit.code = 2
				return exit
			}
			continue
		}
		kept := []byte{a[0]}
		for j := 1; j < len(a); j++ {
			if name, ok := setLetters[a[j]]; ok {
				r.setSetO(name, on)
				continue
			}
			kept = append(kept, a[j])
		}
		if len(kept) > 1 {
			rest = append(rest, string(kept))
		}
	}
	if len(rest) == 0 {
		return exit
	}
	if err := Params(rest...)(r); err != nil {
		r.errf("set: %v\n", err)
		exit.code = 2
		return exit
	}
	r.updateExpandOpts()
	return exit
}

// dollarDash is $-: bash's option letters in bash's order, then c (the
// guest runs commands as bash -c does).
func (r *Runner) dollarDash() string {
	var sb strings.Builder
	for _, f := range "abefhkmnptuvxBCEHP" {
		if r.flagOn(byte(f)) {
			sb.WriteRune(f)
		}
	}
	sb.WriteByte('c')
	return sb.String()
}

func (r *Runner) flagOn(f byte) bool {
	if p := r.posixOptByFlag(f); p != nil {
		return *p
	}
	if name, ok := setLetters[f]; ok {
		on, _ := r.setOValue(name)
		return on
	}
	return false
}

// printVars lists the variables as bash's `set` does: sorted, quoted to be
// read back.
func (r *Runner) printVars() {
	vars := map[string]expand.Variable{}
	r.writeEnv.Each(func(name string, vr expand.Variable) bool {
		if vr.IsSet() {
			vars[name] = vr
		} else {
			delete(vars, name)
		}
		return true
	})
	for _, name := range slices.Sorted(maps.Keys(vars)) {
		vr := vars[name]
		switch vr.Kind {
		case expand.Indexed:
			var sb strings.Builder
			for i, v := range vr.List {
				idx := i
				if vr.Indexes != nil {
					idx = vr.Indexes[i]
				}
				if i > 0 {
					sb.WriteByte(' ')
				}
				sb.WriteString("[" + itoa(idx) + "]=" + dquote(v))
			}
			r.outf("%s=(%s)\n", name, sb.String())
		case expand.Associative:
			var sb strings.Builder
			for _, k := range expand.AssocKeys(vr.Map) {
				sb.WriteString("[" + assocKeyText(k) + "]=" + dquote(vr.Map[k]) + " ")
			}
			r.outf("%s=(%s)\n", name, sb.String())
		default:
			r.outf("%s=%s\n", name, setQuote(vr.String()))
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// assocKeyText is a key as bash prints it in set and declare -p: bare
// unless it needs quoting.
func assocKeyText(k string) string {
	if k == "" || strings.ContainsAny(k, " \t\n\"'\\$`[]*?;&|<>(){}!#~") {
		return dquote(k)
	}
	return k
}

// dquote quotes s in double quotes, as bash's set and declare -p print
// array elements.
func dquote(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("\"\\$`", s[i]) >= 0 {
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	sb.WriteByte('"')
	return sb.String()
}

// setQuote quotes a scalar as bash's set prints it: as is when safe,
// $'...' with control characters, '...' otherwise.
func setQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return ansiQuote(s)
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_./-:,+=@%^", c) >= 0 || c >= 0x80) {
			safe = false
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
