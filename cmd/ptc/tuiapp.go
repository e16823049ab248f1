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
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/compact"
	"github.com/ptc-dev/ptc/runtime/llm/models"
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
	be := &tuiBackend{flags: *f, app: a}
	defer be.close()
	mu.Lock()
	cfg := tui.Config{Profile: termenv.NewOutput(os.Stdout).EnvColorProfile(), Notes: notes}
	mu.Unlock()
	if err := tui.Run(be, cfg, ans); err != nil {
		return err
	}
	fmt.Fprintf(c.ErrOrStderr(), "session %s saved; resume with: %s\n", be.ID(), be.ResumeHint())
	return nil
}

// tuiBackend is the TUI's view of the app: the current session, and the
// flags to open another one with (/new, /resume).
type tuiBackend struct {
	flags runFlags
	mu    sync.Mutex
	app   *app
}

func (b *tuiBackend) cur() *app {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.app
}

func (b *tuiBackend) ID() string                 { return b.cur().ID() }
func (b *tuiBackend) Settings() session.Settings { return b.cur().sess.Settings() }
func (b *tuiBackend) Model() models.Model        { return b.cur().sess.Model() }
func (b *tuiBackend) Events() []session.Event    { return b.cur().sess.Events() }
func (b *tuiBackend) Cancel() bool               { return b.cur().sess.Cancel() }
func (b *tuiBackend) ResumeHint() string         { return b.cur().resumeHint() }
func (b *tuiBackend) HistoryDir() string         { return b.cur().home.Dir() }

func (b *tuiBackend) PlanMode() bool             { return b.cur().sess.PlanMode() }
func (b *tuiBackend) Goal() (session.Goal, bool) { return b.cur().sess.Goal() }
func (b *tuiBackend) SetPlanMode(ctx context.Context, on bool) error {
	return b.cur().sess.SetPlanMode(ctx, on)
}

func (b *tuiBackend) SetGoal(ctx context.Context, objective string) (session.Goal, error) {
	return b.cur().sess.SetGoal(ctx, objective, 0)
}

func (b *tuiBackend) UpdateGoal(ctx context.Context, action string) (session.Goal, error) {
	return b.cur().sess.UpdateGoal(ctx, action, "", 0)
}

func (b *tuiBackend) RunGoal(ctx context.Context) (agent.Outcome, error) {
	return b.cur().sess.RunGoal(ctx)
}

func (b *tuiBackend) Settle(ctx context.Context) (agent.Outcome, bool, error) {
	return b.cur().sess.Settle(ctx)
}

func (b *tuiBackend) Models() []models.Model {
	t, err := b.cur().home.Models()
	if err != nil {
		return nil
	}
	return t.List()
}

func (b *tuiBackend) Subscribe(fn func(session.Event)) func() {
	return b.cur().sess.Subscribe(fn)
}

func (b *tuiBackend) Run(ctx context.Context, input string) (agent.Outcome, error) {
	return b.cur().sess.Run(ctx, input)
}

func (b *tuiBackend) Followup(text string)    { b.cur().sess.Followup(text) }
func (b *tuiBackend) Queued() int             { return b.cur().sess.Queued() }
func (b *tuiBackend) TakeFollowups() []string { return b.cur().sess.TakeFollowups() }

func (b *tuiBackend) Compact(ctx context.Context) (compact.Result, error) {
	return b.cur().sess.Compact(ctx)
}

func (b *tuiBackend) Change(ctx context.Context, s session.Settings, fields ...session.Field) error {
	return b.cur().sess.Change(ctx, s, fields...)
}

func (b *tuiBackend) Sessions(ctx context.Context) ([]session.Summary, error) {
	a := b.cur()
	return a.home.Catalog().List(ctx, session.ListOptions{Cwd: a.sess.Settings().Workspace})
}

// Switch opens the other session first, so a failure (an unknown id, a
// session another process holds) leaves the current one in place; then
// it closes the current one.
func (b *tuiBackend) Switch(ctx context.Context, id string) error {
	old := b.cur()
	f := b.flags
	if id == "" {
		f.resume, f.settings, f.given = "", old.sess.Settings(), nil
	} else {
		f.resume, f.settings, f.given = id, session.Settings{}, nil
	}
	next, err := openApp(ctx, &f, nil)
	if err != nil {
		return errors.New(termsafe.String(err.Error()))
	}
	b.mu.Lock()
	b.app = next
	b.mu.Unlock()
	if err := old.Close(); err != nil {
		f.notef("ptc: closing session %s: %v", old.ID(), err)
	}
	return nil
}

func (b *tuiBackend) close() {
	if err := b.cur().Close(); err != nil {
		fmt.Fprintln(os.Stderr, "ptc:", err)
	}
}
