package rootfs

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/ptc-dev/ptc/internal/termsafe"
)

// git-write opens the top-level .git to git's own data, but some of that
// data is a program git runs later: an interactive rebase stopped at a
// `break` keeps its remaining steps in rebase-merge/git-rebase-todo, and
// an `exec` line there runs on the user's next `git rebase --continue`,
// on the host, unconfined. The same holds for a cherry-pick or revert
// sequence (sequencer/todo), and a merge strategy named in the state is
// looked up as a program (git-merge-<name>). So after every git-write
// command the sandbox removes such lines (and unknown strategies) and
// says so; hooks, config and the other files that decide what git runs
// stay read-only (GitWriteKept). The rest of the state is data: picks,
// labels, refs, messages.

// todoFiles are the step lists git executes when a stopped sequence goes
// on.
var todoFiles = []string{".git/rebase-merge/git-rebase-todo", ".git/sequencer/todo"}

// knownStrategies are git's own merge strategies; any other name runs a
// program called git-merge-<name>.
var knownStrategies = []string{"ort", "recursive", "resolve", "octopus", "ours", "subtree"}

// maxStateFile bounds the bytes read of one state file (a todo list of a
// few thousand steps is far below it); a larger one is removed whole.
const maxStateFile = 8 << 20

// DisarmGitState removes from the top-level .git what git would run on
// the user's next command: exec lines of a stopped rebase or sequencer,
// strategies that are no built-in one. It returns one note per file it
// changed, for the user (nothing when there was nothing to do). It is
// meant for git-write mode, where those files are writable.
func (f *FS) DisarmGitState() []string {
	var notes []string
	for _, p := range todoFiles {
		notes = append(notes, f.rewriteState(p, dropExecLines, "exec step(s)")...)
	}
	notes = append(notes, f.rewriteState(".git/rebase-merge/strategy", dropUnknownStrategy, "merge strategy")...)
	notes = append(notes, f.rewriteState(".git/sequencer/opts", dropUnknownStrategyOption, "merge strategy")...)
	return notes
}

// rewriteState applies fix to the state file p when it exists and
// replaces the file with what fix keeps (removing it when fix keeps
// nothing). removed are the lines fix dropped.
func (f *FS) rewriteState(p string, fix func(string) (kept string, removed []string), what string) []string {
	data, tooBig, e := f.readSmall(p)
	switch {
	case e == experimentalsys.ENOENT || e == experimentalsys.ENOTDIR:
		return nil
	case tooBig:
		if f.Unlink(p) == 0 {
			return []string{fmt.Sprintf("ptc removed %s: larger than %d MiB, it could hold steps git would run", p, maxStateFile>>20)}
		}
		return []string{fmt.Sprintf("ptc could not check %s (too large) and could not remove it: look at it before you run git", p)}
	case e != 0:
		return nil
	}
	kept, removed := fix(data)
	if len(removed) == 0 {
		return nil
	}
	var werr experimentalsys.Errno
	if strings.TrimSpace(kept) == "" && what == "merge strategy" {
		werr = f.Unlink(p)
	} else {
		werr = f.replaceFile(p, kept)
	}
	shown := make([]string, 0, len(removed))
	for _, r := range removed {
		shown = append(shown, termsafe.Clip(strings.TrimSpace(r), 120))
	}
	if werr != 0 {
		return []string{fmt.Sprintf("ptc found %s git would run in %s (%s) and could not remove them (%v): look at it before you run git", what, p, strings.Join(shown, "; "), werr)}
	}
	return []string{fmt.Sprintf("ptc removed %d %s from %s, which git would have run on your next git command: %s", len(removed), what, p, strings.Join(shown, "; "))}
}

// readSmall reads a whole regular file of at most maxStateFile bytes
// (tooBig when it is larger).
func (f *FS) readSmall(p string) (content string, tooBig bool, e experimentalsys.Errno) {
	h, e := f.OpenFile(p, experimentalsys.O_RDONLY|experimentalsys.O_NOFOLLOW, 0)
	if e != 0 {
		return "", false, e
	}
	defer h.Close()
	var b strings.Builder
	buf := make([]byte, 64<<10)
	for {
		n, e := h.Read(buf)
		b.Write(buf[:n])
		if b.Len() > maxStateFile {
			return "", true, 0
		}
		if e != 0 {
			return "", false, e
		}
		if n == 0 {
			return b.String(), false, 0
		}
	}
}

// replaceFile writes content beside p and renames it into place.
func (f *FS) replaceFile(p, content string) experimentalsys.Errno {
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := path.Join(path.Dir(p), ".ptc-state-"+hex.EncodeToString(rnd[:]))
	h, e := f.OpenFile(tmp, experimentalsys.O_WRONLY|experimentalsys.O_CREAT|experimentalsys.O_EXCL, 0o644)
	if e != 0 {
		return e
	}
	if _, err := io.WriteString(writerOf(h), content); err != nil {
		e = experimentalsys.EIO
		if en, ok := err.(experimentalsys.Errno); ok {
			e = en
		}
	}
	if ce := h.Close(); e == 0 {
		e = ce
	}
	if e == 0 {
		e = f.Rename(tmp, p)
	}
	if e != 0 {
		_ = f.Unlink(tmp)
	}
	return e
}

// dropExecLines removes the exec (x) steps of a todo list.
func dropExecLines(todo string) (string, []string) {
	var kept strings.Builder
	var removed []string
	for _, line := range strings.SplitAfter(todo, "\n") {
		word, _, _ := strings.Cut(strings.TrimLeft(line, " \t"), " ")
		word, _, _ = strings.Cut(strings.TrimRight(word, "\r\n"), "\t")
		if word == "exec" || word == "x" {
			removed = append(removed, line)
			continue
		}
		kept.WriteString(line)
	}
	return kept.String(), removed
}

// dropUnknownStrategy empties a strategy file naming no built-in one.
func dropUnknownStrategy(s string) (string, []string) {
	if name := strings.TrimSpace(s); name != "" && !slices.Contains(knownStrategies, name) {
		return "", []string{name}
	}
	return s, nil
}

// dropUnknownStrategyOption removes a strategy line of sequencer/opts
// (git config syntax) that names no built-in strategy.
func dropUnknownStrategyOption(opts string) (string, []string) {
	var kept strings.Builder
	var removed []string
	for _, line := range strings.SplitAfter(opts, "\n") {
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "strategy") {
			v = strings.Trim(strings.TrimSpace(v), `"`)
			if !slices.Contains(knownStrategies, v) {
				removed = append(removed, line)
				continue
			}
		}
		kept.WriteString(line)
	}
	return kept.String(), removed
}

// writerOf adapts a wazero file to io.Writer.
type fileWriter struct{ f experimentalsys.File }

func writerOf(f experimentalsys.File) io.Writer { return fileWriter{f} }

func (w fileWriter) Write(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m, e := w.f.Write(p[n:])
		n += m
		if e != 0 {
			return n, e
		}
	}
	return n, nil
}
