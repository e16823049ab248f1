package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"

	"github.com/spf13/cobra"

	"github.com/ptc-dev/ptc/harness"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/agent"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/natsstore"
	"github.com/ptc-dev/ptc/worker"
)

// fleetRunFlags are the flags `ptc run` takes for a fleet.
type fleetRunFlags struct {
	fleetOptions
	pool string
}

func (f *fleetRunFlags) register(cmd *cobra.Command) {
	f.fleetOptions.register(cmd, false)
	cmd.Flags().StringVar(&f.pool, "pool", worker.DefaultPool, "with --nats: the pool of workers to run the turn")
}

// runFleet is `ptc run --nats URL`: create or pick the session on the
// server, queue the turn for a worker of the pool, and print the
// session's events as they arrive until the worker ends the job.
func runFleet(c *cobra.Command, f *runFlags, input string) error {
	if err := checkOutput(f.output); err != nil {
		return err
	}
	if err := harness.CheckSettings(f.settings); err != nil {
		return err
	}
	if err := worker.CheckPool(f.fleet.pool); err != nil {
		return err
	}
	ctx, stop := interruptContext(c.Context())
	defer stop()
	fl, err := dialFleet(ctx, f.fleet.fleetOptions, fmt.Sprintf("ptc run pid %d", os.Getpid()), nil)
	if err != nil {
		return err
	}
	defer fl.Close()
	id, from, set, err := fleetSession(ctx, fl, f)
	if err != nil {
		return err
	}
	job := worker.Job{ID: worker.NewJobID(), Session: id, Input: input}
	if f.resume != "" {
		job.Settings, job.Override = set, f.given
	}
	pr := newPrinter(f.output, c.OutOrStdout(), c.ErrOrStderr())
	pr.sessionID = id
	pr.resume = fmt.Sprintf("ptc run --nats %s --resume %s", shellQuote(f.fleet.url), id)
	var seen []session.Event
	var end *session.WorkerEnd
	started := make(chan struct{})
	followed := make(chan error, 1)
	go func() {
		followed <- followFrom(ctx, fl, id, from, started, func(e session.Event) error {
			seen = append(seen, e)
			if e.Type == session.TypeWorkerEnd {
				var d session.WorkerEnd
				if json.Unmarshal(e.Data, &d) == nil && d.Job == job.ID {
					end = &d
					return natsstore.ErrStop
				}
			}
			pr.event(e)
			return nil
		})
	}()
	<-started
	if err := worker.Enqueue(ctx, fl.js, f.fleet.pool, job); err != nil {
		return err
	}
	if f.output == "text" {
		fmt.Fprintf(c.ErrOrStderr(), "ptc: queued the turn for pool %s (job %s, session %s); Ctrl-C stops watching, not the turn\n", f.fleet.pool, job.ID, id)
	}
	if err := <-followed; err != nil {
		if ctx.Err() != nil {
			return exitError{code: 130}
		}
		return err
	}
	res := agent.OutcomeOf(seen)
	if end.Failure != "" {
		if res.Reason != "" {
			_ = pr.finish(res)
		}
		return fmt.Errorf("the worker could not run the turn: %s", termsafe.String(end.Failure))
	}
	if err := pr.finish(res); err != nil {
		return err
	}
	return turnError(res)
}

// followFrom follows session id from seq from, closing started once
// the subscription is in place (so nothing queued after it is missed),
// or when the follow fails before.
func followFrom(ctx context.Context, fl *fleet, id string, from int64, started chan struct{}, fn func(session.Event) error) error {
	var once sync.Once
	ready := func() { once.Do(func() { close(started) }) }
	defer ready()
	return fl.cat.Store().Follow(ctx, id, from, fn, ready)
}

// fleetSession creates the session of a new run or resolves --resume,
// and returns its id, how many events it holds and the flags' settings
// resolved on this machine as a local run would (paths made absolute,
// defaults from the preset), which a resumed run's worker takes the
// given fields of.
func fleetSession(ctx context.Context, fl *fleet, f *runFlags) (string, int64, session.Settings, error) {
	home, err := openHome(f.home)
	if err != nil {
		return "", 0, session.Settings{}, err
	}
	defer home.Close()
	h, notes, err := harness.NewHeader(home, f.settings, nil, nil)
	if err != nil {
		return "", 0, session.Settings{}, err
	}
	if f.resume != "" {
		id, err := fl.resolve(f.resume)
		if err != nil {
			return "", 0, session.Settings{}, err
		}
		ld, err := fl.cat.Load(ctx, id)
		if err != nil {
			return "", 0, session.Settings{}, err
		}
		return id, int64(len(ld.Events)), h.Settings, nil
	}
	for _, n := range notes {
		f.notef("ptc: note: %s", termsafe.String(n))
	}
	held, err := fl.cat.Create(ctx, h, session.LogOptions{})
	if err != nil {
		return "", 0, session.Settings{}, err
	}
	id := held.SessionLog().Header().ID
	return id, 0, h.Settings, held.Close()
}

// listFleet is `ptc sessions --nats URL`.
func listFleet(c *cobra.Command, o fleetOptions, output string) error {
	fl, err := dialFleet(c.Context(), o, fmt.Sprintf("ptc pid %d", os.Getpid()), nil)
	if err != nil {
		return err
	}
	defer fl.Close()
	list, err := fl.cat.List(c.Context(), session.ListOptions{})
	if err != nil {
		return err
	}
	return printSummaries(c, output, list)
}

// loadFleet reads one session of the fleet.
func loadFleet(ctx context.Context, o fleetOptions, prefix string) (session.Loaded, error) {
	fl, err := dialFleet(ctx, o, fmt.Sprintf("ptc pid %d", os.Getpid()), nil)
	if err != nil {
		return session.Loaded{}, err
	}
	defer fl.Close()
	id, err := fl.resolve(prefix)
	if err != nil {
		return session.Loaded{}, err
	}
	return fl.cat.Load(ctx, id)
}

// followFleet is `ptc attach --nats` and `ptc session show --follow
// --nats`: the session's events from the start of the job or turn in
// progress, live, until that job (attach) or turn (show) ends. A session
// no worker holds is printed as stored.
func followFleet(c *cobra.Command, o fleetOptions, prefix, output string, untilJob bool) error {
	if err := checkOutput(output); err != nil {
		return err
	}
	ctx, stop := interruptContext(c.Context())
	defer stop()
	fl, err := dialFleet(ctx, o, fmt.Sprintf("ptc pid %d", os.Getpid()), nil)
	if err != nil {
		return err
	}
	defer fl.Close()
	id, err := fl.resolve(prefix)
	if err != nil {
		return err
	}
	ld, err := fl.cat.Load(ctx, id)
	if err != nil {
		return err
	}
	pr := newPrinter(output, c.OutOrStdout(), c.ErrOrStderr())
	pr.sessionID = id
	holder := fl.cat.Holder(ctx, id)
	if !holder.Live {
		fmt.Fprintf(c.ErrOrStderr(), "ptc: session %s is not running; here is what it holds\n", id)
		return printLoaded(c, ld, output, pr)
	}
	from := currentStart(ld.Events, untilJob)
	if output == "text" {
		fmt.Fprintf(c.ErrOrStderr(), "following session %s (%s); Ctrl-C stops following, not the session\n", id, termsafe.String(holder.By))
	}
	var seen []session.Event
	err = fl.cat.Store().Follow(ctx, id, from, func(e session.Event) error {
		seen = append(seen, e)
		pr.event(e)
		if (untilJob && e.Type == session.TypeWorkerEnd) || (!untilJob && e.Type == session.TypeTurnEnd) {
			return natsstore.ErrStop
		}
		return nil
	}, nil)
	if ctx.Err() != nil {
		pr.endReasoning()
		pr.breakLine()
		return nil
	}
	if err != nil {
		return err
	}
	return finishFollow(c, pr, seen, "")
}

// currentStart is the seq the job (or turn) in progress started at.
func currentStart(events []session.Event, job bool) int64 {
	typ := session.TypeTurnStart
	if job {
		typ = session.TypeWorkerStart
	}
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == typ {
			return events[i].Seq
		}
	}
	return 0
}

// printLoaded prints a stored session in one of the follow formats.
func printLoaded(c *cobra.Command, ld session.Loaded, output string, pr *printer) error {
	switch output {
	case "json":
		return writeShowJSON(c, ld.Header, ld.Events)
	case "stream-json":
		for _, e := range ld.Events {
			pr.event(e)
		}
		return nil
	}
	return showText(c.OutOrStdout(), ld.Header, ld.Events)
}

// showFleet is `ptc session show --nats URL ID`.
func showFleet(c *cobra.Command, o fleetOptions, prefix, output string) error {
	ld, err := loadFleet(c.Context(), o, prefix)
	if err != nil {
		return err
	}
	switch output {
	case "json":
		return writeShowJSON(c, ld.Header, ld.Events)
	case "text", "":
		return showText(c.OutOrStdout(), ld.Header, ld.Events)
	}
	return fmt.Errorf("unknown output format %q: use text or json", output)
}
