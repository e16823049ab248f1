// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md).

package interp

import "strings"

// ptcEcho is the echo builtin as bash has it: options may be combined
// (-en, -neE) and a word with any other letter is printed, -e escapes
// include \c (stop) and \0NNN, and the whole line is one write. Upstream
// took only separate -n, -e, -E words, so echo -en printed "-en".
func (r *Runner) ptcEcho(args []string) {
	newline, escapes := true, false
	for len(args) > 0 && echoFlags(args[0]) {
		for _, f := range args[0][1:] {
			switch f {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	var sb strings.Builder
	for i, arg := range args {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if escapes && writeEchoEscapes(&sb, arg, escEcho) {
			r.out(sb.String())
			return
		}
		if !escapes {
			sb.WriteString(arg)
		}
	}
	if newline {
		sb.WriteByte('\n')
	}
	r.out(sb.String())
}

func echoFlags(arg string) bool {
	if len(arg) < 2 || arg[0] != '-' {
		return false
	}
	return strings.Trim(arg[1:], "neE") == ""
}
