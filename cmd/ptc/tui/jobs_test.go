package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/sandbox/jobs"
)

// jobsFake is a fakeBackend with background jobs.
type jobsFake struct {
	*fakeBackend
	jobs   []jobs.Info
	killed []string
	tail   string
}

func (f *jobsFake) Jobs() []jobs.Info { return f.jobs }
func (f *jobsFake) KillJob(id string) (jobs.Info, error) {
	for i, j := range f.jobs {
		if j.ID == id {
			f.killed = append(f.killed, id)
			code := -1
			f.jobs[i].Status, f.jobs[i].By, f.jobs[i].ExitCode = session.JobKilled, session.EndedByUser, &code
			return f.jobs[i], nil
		}
	}
	return jobs.Info{}, errors.New("no job " + id)
}
func (f *jobsFake) JobTail(id string, _ int64) (string, error) { return f.tail, nil }

func TestRunningJobsShowInTheStatusLineAndSlashJobsListsShowsAndKills(t *testing.T) {
	fake := &jobsFake{fakeBackend: newFake(t), tail: "Serving HTTP\n\x1b[31mGET / 200\n",
		jobs: []jobs.Info{{ID: "job-1", Command: "python3 -m http.server 8000", Status: session.JobRunning, Started: clock, OutputBytes: 40}}}
	e := turnOf(&events{}, "serve").
		add(session.TypeJobStart, session.JobStart{JobID: "job-1", Command: "python3 -m http.server 8000", Mode: "workspace-write"}).
		add(session.TypeJobStart, session.JobStart{JobID: "job-2", Command: "sleep 1", Mode: "workspace-write"}).
		add(session.TypeJobEnd, session.JobEnd{JobID: "job-2", Status: session.JobExited})
	m := New(fake, Config{Now: func() time.Time { return clock }})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	drive(m, e.items())
	if status := lastLine(screen(m)); !strings.Contains(status, "1 job(s) running") {
		t.Fatalf("status line %q", status)
	}
	t.Run("/jobs lists the jobs", func(t *testing.T) {
		typeText(m, "/jobs")
		drive(m, press("esc"), press("enter"))
		if got := screen(m); !strings.Contains(got, "job-1   running") || !strings.Contains(got, "python3 -m http.server 8000") {
			t.Fatalf("screen:\n%s", got)
		}
	})
	t.Run("/jobs ID shows the end of its output, escaped", func(t *testing.T) {
		typeText(m, "/jobs job-1")
		drive(m, press("esc"), press("enter"))
		got := screen(m)
		if !strings.Contains(got, "GET / 200") || strings.Contains(got, "\x1b[31m") {
			t.Fatalf("screen:\n%s", got)
		}
	})
	t.Run("/jobs kill ID kills it as the user", func(t *testing.T) {
		typeText(m, "/jobs kill job-1")
		drive(m, press("esc"), press("enter"))
		if len(fake.killed) != 1 || !strings.Contains(screen(m), "job-1 killed by user") {
			t.Fatalf("killed %v, screen:\n%s", fake.killed, screen(m))
		}
	})
}
