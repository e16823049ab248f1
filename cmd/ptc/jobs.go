package main

import (
	"fmt"
	"io"

	"github.com/ptc-dev/ptc/cmd/ptc/tui"
	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/sandbox/jobs"
)

// jobStatus says how a job stands in a few words.
func jobStatus(j jobs.Info) string {
	switch {
	case j.Status == session.JobRunning:
		return "running"
	case j.By != "":
		return "killed by " + j.By
	case j.ExitCode != nil:
		return fmt.Sprintf("exited %d", *j.ExitCode)
	}
	return j.Status
}

// showJobs prints the background jobs a session's events record.
func showJobs(w io.Writer, list []jobs.Info) error {
	if len(list) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\njobs (%d):\n", len(list))
	for _, j := range list {
		if _, err := fmt.Fprintf(w, "  %-7s %-20s %9d bytes  started %s  %s\n", j.ID, jobStatus(j), j.OutputBytes,
			j.Started.Local().Format("15:04:05"), termsafe.Clip(j.Command, 70)); err != nil {
			return err
		}
	}
	return nil
}

// The TUI's /jobs view reaches the session's jobs through harness.Front.
var _ tui.JobsBackend = tuiBackend{}
