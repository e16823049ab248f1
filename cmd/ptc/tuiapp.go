package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/muesli/termenv"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ptc-dev/ptc/cmd/ptc/tui"
	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
)

// onTerminal reports whether both stdin and stdout are terminals: only
// then does `ptc` start the TUI (anything piped keeps the line mode).
func onTerminal() bool {
	return term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stdout.Fd()))
}

// runTUI opens the session (errors print as usual, before the screen
// changes) and hands the terminal to the TUI; when the user leaves, it
// prints the command that resumes the session.
func runTUI(c *cobra.Command, f *runFlags) error {
	ans := tui.NewAnswerer(newTerminalAnswerer())
	var notes []string
	var mu sync.Mutex
	f.answerer = ans
	f.note = func(s string) {
		if ans.Notify(s) {
			return
		}
		mu.Lock()
		notes = append(notes, s)
		mu.Unlock()
	}
	a, err := openApp(c.Context(), f, nil)
	if err != nil {
		return err
	}
	be := newTUIBackend(*f, a)
	defer be.close()
	mu.Lock()
	cfg := tui.Config{Profile: termenv.NewOutput(os.Stdout).EnvColorProfile(), Notes: notes}
	mu.Unlock()
	if err := tui.Run(be, cfg, ans); err != nil {
		return err
	}
	if be.Seat().Session().Untouched() {
		return nil // nothing was asked: the session is not kept (be.close)
	}
	fmt.Fprintf(c.ErrOrStderr(), "session %s saved; resume with: %s\n", be.ID(), be.ResumeHint())
	return nil
}

// tuiBackend is the TUI's view of the app: harness.Front holds the
// current session and opens another with the same flags (/new, /resume).
type tuiBackend struct {
	*harness.Front
}

var (
	_ tui.Backend       = tuiBackend{}
	_ tui.RewindBackend = tuiBackend{}
	_ tui.ShellBackend  = tuiBackend{}
)

// newTUIBackend holds a, and opens the session to switch to as ptc would
// with flags f.
func newTUIBackend(f runFlags, a *app) tuiBackend {
	reopen := func(ctx context.Context, id string, like *harness.Session) (harness.Seat, error) {
		g := f
		if id == "" {
			g.resume, g.settings, g.given = "", like.Settings(), nil
		} else {
			g.resume, g.settings, g.given = id, session.Settings{}, nil
		}
		next, err := openApp(ctx, &g, nil)
		if err != nil {
			return nil, errors.New(termsafe.String(err.Error()))
		}
		return next, nil
	}
	onClose := func(id string, err error) { f.notef("ptc: closing session %s: %v", id, err) }
	return tuiBackend{harness.NewFront(a, reopen, onClose)}
}

// ResumeHint is the command that continues the session in force.
func (b tuiBackend) ResumeHint() string { return b.Seat().(*app).resumeHint() }

func (b tuiBackend) close() {
	if err := b.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "ptc:", err)
	}
}
