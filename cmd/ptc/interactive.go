package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/internal/termsafe"
)

// newInteractiveCmd is `ptc` with no arguments: the interactive session.
// Ctrl-C cancels the running turn, Ctrl-D exits.
func newInteractiveCmd() *cobra.Command {
	f := &runFlags{output: "text"}
	var serveURL string
	cmd := &cobra.Command{
		Use:   "ptc",
		Short: "ptc: a coding agent built around programmatic tool calling",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if serveURL != "" {
				return interactiveServed(c, f, serveURL)
			}
			return interactive(c, f)
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&serveURL, "serve", "", "run the session on the ptc serve server at this URL (the flags give its settings; --resume ID attaches)")
	return cmd
}

// firstRun runs the setup dialog when nothing names a model server.
func firstRun(f *runFlags) error {
	h, err := openHome(f.home)
	if err != nil {
		return err
	}
	defer h.Close()
	if !needsSetup(f, h.Dir()) {
		return nil
	}
	return setupOnTerminal(h.Dir())
}

// interactive is the TUI on a terminal, else a line-mode loop (stdin or
// stdout piped: scripts, tests, dumb terminals).
func interactive(c *cobra.Command, f *runFlags) error {
	if onTerminal() {
		if err := firstRun(f); err != nil {
			return err
		}
		return runTUI(c, f)
	}
	out, errw := c.OutOrStdout(), c.ErrOrStderr()
	pr := newPrinter("text", out, errw)
	a, err := openApp(c.Context(), f, pr.event)
	if err != nil {
		return err
	}
	defer a.Close()
	pr.sessionID = a.ID()
	fmt.Fprintf(errw, "ptc session %s — Ctrl-C cancels a running turn, /compact summarises the session so far, Ctrl-D exits\n", a.ID())

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go func() {
		for range sigs {
			if !a.sess.Cancel() {
				fmt.Fprintln(errw, "\n(no turn is running; press Ctrl-D to exit)")
			}
		}
	}()

	in := bufio.NewReader(c.InOrStdin())
	for {
		fmt.Fprint(out, "> ")
		line, err := in.ReadString('\n')
		text := strings.TrimSpace(line)
		handled, cerr := compactCommand(c, a.sess, text)
		if cerr == nil && !handled {
			handled, cerr = agenticCommand(c, a.sess, text)
		}
		if cerr != nil {
			return cerr
		}
		if text != "" && !handled {
			res, rerr := a.sess.Run(c.Context(), expandCommand(a, f, text))
			if rerr != nil {
				return rerr
			}
			pr.endReasoning()
			pr.breakLine()
			if res.Reason != "completed" {
				msg := res.Reason
				if res.Failure != "" {
					msg += ": " + res.Failure
				}
				fmt.Fprintf(errw, "(turn ended: %s)\n", termsafe.String(msg))
			}
		}
		if err == io.EOF {
			fmt.Fprintf(errw, "\nsession %s saved; resume with: %s\n", a.ID(), a.resumeHint())
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// interruptContext is cancelled by Ctrl-C, which cancels the running
// turn (its record is still written) instead of killing the process.
func interruptContext(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := signal.NotifyContext(parent, os.Interrupt)
	return ctx, cancel
}
