package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/checkpoint"
	"github.com/ptc-dev/ptc/runtime/session"
)

// newRewindCmd is `ptc rewind ID [--to-turn N] [--files-only]`.
func newRewindCmd() *cobra.Command {
	var home string
	var opts harness.RewindOptions
	cmd := &cobra.Command{
		Use:   "rewind ID [--to-turn N] [--files-only] [--force] [--dry-run]",
		Short: "Put a session's workspace (and conversation) back to before one of its turns",
		Long: `Put the workspace back to how it was before turn N: every file the session's turns from N
on changed (file tools, guest commands, host programs, subagents) gets its earlier bytes back,
and, unless --files-only, those turns leave the model's view when the session is resumed.
A file changed outside ptc since its last write makes the rewind refuse, naming it (--force
overwrites it). Without --to-turn, lists the turns that changed files.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if !c.Flags().Changed("to-turn") {
				return listTurns(c, home, args[0])
			}
			h, err := openHome(home)
			if err != nil {
				return err
			}
			defer h.Close()
			plan, err := harness.RewindSession(c.Context(), h, args[0], opts)
			if errors.Is(err, session.ErrNotFound) {
				return unknownSession(args[0], h.Catalog().Dir())
			}
			if err != nil {
				return errors.New(termsafe.String(err.Error()))
			}
			printPlan(c.OutOrStdout(), plan, opts)
			return nil
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "ptc home directory (default: $PTC_HOME or ~/.ptc)")
	cmd.Flags().IntVar(&opts.ToTurn, "to-turn", 0, "the turn to go back to before (1 is the first)")
	cmd.Flags().BoolVar(&opts.FilesOnly, "files-only", false, "put the files back but keep the conversation")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "overwrite files changed outside ptc since, skip files whose bytes were not kept")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "say what would be put back, change nothing")
	return cmd
}

func printPlan(w io.Writer, p checkpoint.Plan, opts harness.RewindOptions) {
	verb := "restored"
	if opts.DryRun {
		verb = "would restore"
	}
	for _, a := range p.Actions {
		fmt.Fprintf(w, "%s %s (%s)\n", verb, termsafe.Line(a.Path), what(a.Target))
	}
	what := "files and conversation"
	if opts.FilesOnly {
		what = "files"
	}
	fmt.Fprintf(w, "rewound %s to before turn %d: %d path(s)\n", what, p.ToTurn, len(p.Actions))
}

// what says what a path goes back to.
func what(st session.FileState) string {
	switch st.Kind {
	case session.KindAbsent:
		return "removed"
	case session.KindDir:
		return "directory"
	case session.KindSymlink:
		return "symlink"
	}
	return fmt.Sprintf("%d bytes", st.Size)
}

// listTurns prints the session's turns that changed files.
func listTurns(c *cobra.Command, home, id string) error {
	_, events, err := loadSession(c.Context(), home, id)
	if err != nil {
		return err
	}
	h, err := checkpoint.Read(events)
	if err != nil {
		return err
	}
	w := c.OutOrStdout()
	turns := h.Changed()
	if len(turns) == 0 {
		fmt.Fprintln(w, "no turn of this session changed files")
		return nil
	}
	for _, t := range turns {
		fmt.Fprintf(w, "turn %d: %s\n", t.Turn, clip(t.Prompt, 70))
		for _, f := range t.Files {
			fmt.Fprintf(w, "  %s\n", termsafe.Line(f.Path))
		}
	}
	fmt.Fprintln(w, "rewind with: ptc rewind "+id+" --to-turn N")
	return nil
}

// newSessionDiffCmd is `ptc session diff ID [--turn N]`.
func newSessionDiffCmd(home *string) *cobra.Command {
	var turn int
	cmd := &cobra.Command{
		Use:   "diff ID [--turn N]",
		Short: "Show what a session changed in its workspace as a unified diff (--turn: one turn's changes)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			hd, events, err := loadSession(c.Context(), *home, args[0])
			if err != nil {
				return err
			}
			hist, err := checkpoint.Read(events)
			if err != nil {
				return err
			}
			turns := hist.Turns
			if c.Flags().Changed("turn") {
				t, ok := hist.Find(turn)
				if !ok {
					return fmt.Errorf("session %s has no turn %d", hd.ID, turn)
				}
				turns = []checkpoint.Turn{t}
			}
			h, err := openHome(*home)
			if err != nil {
				return err
			}
			defer h.Close()
			out := checkpoint.Unified(checkpoint.Net(turns), checkpoint.Store{Dir: h.CheckpointDir(hd.ID)})
			if out == "" {
				fmt.Fprintln(c.ErrOrStderr(), "ptc: no changes")
				return nil
			}
			_, err = io.WriteString(c.OutOrStdout(), sanitiseDiff(out))
			return err
		},
	}
	cmd.Flags().IntVar(&turn, "turn", 0, "show only this turn's changes")
	return cmd
}

// sanitiseDiff makes each line of a diff safe for a terminal (a file's
// bytes are anyone's).
func sanitiseDiff(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = termsafe.Line(l)
	}
	return strings.Join(lines, "\n") + "\n"
}
