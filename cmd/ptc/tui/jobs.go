package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/ptc-dev/ptc/internal/termsafe"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/sandbox/jobs"
)

// JobsBackend is the part of a Backend that reaches the session's
// background jobs (/jobs). A Backend without it has no /jobs view; the
// status line counts jobs from the events either way.
type JobsBackend interface {
	// Jobs lists the session's jobs, oldest first.
	Jobs() []jobs.Info
	// KillJob kills a running job as the user.
	KillJob(id string) (jobs.Info, error)
	// JobTail is the end of a job's output, at most n bytes.
	JobTail(id string, n int64) (string, error)
}

// jobEvent folds job/start and job/end into the running jobs the status
// line counts, and notes each end in the transcript.
func (t *transcript) jobEvent(ev session.Event) {
	switch ev.Type {
	case session.TypeJobStart:
		var d session.JobStart
		if !decode(ev, &d) {
			return
		}
		if t.ext.jobs == nil {
			t.ext.jobs = map[string]bool{}
		}
		t.ext.jobs[d.JobID] = true
		t.notice(toneInfo, "background job "+termsafe.Line(d.JobID)+" started: "+termsafe.Clip(d.Command, 100)+" (/jobs shows it)")
	case session.TypeJobEnd:
		var d session.JobEnd
		if !decode(ev, &d) {
			return
		}
		if !t.ext.jobs[d.JobID] {
			return // an earlier run's job, ended on resume: nothing to tell
		}
		delete(t.ext.jobs, d.JobID)
		how := fmt.Sprintf("exited %d", d.ExitCode)
		if d.Status == session.JobKilled {
			how = "killed by " + termsafe.Line(d.By)
		}
		t.notice(toneInfo, "background job "+termsafe.Line(d.JobID)+" "+how)
	}
}

// jobsTail bounds the output /jobs ID shows.
const jobsTail = 4 << 10

// cmdJobs is /jobs: the session's jobs; /jobs ID the end of one's
// output; /jobs kill ID stops one.
func (m *Model) cmdJobs(arg string) tea.Cmd {
	jb, ok := m.be.(JobsBackend)
	if !ok {
		m.tr.notice(toneWarn, "this session has no background jobs")
		return nil
	}
	fields := strings.Fields(arg)
	switch {
	case len(fields) == 0:
		m.tr.notice(toneInfo, jobsListing(jb.Jobs()))
	case len(fields) == 2 && fields[0] == "kill":
		id := fields[1]
		return m.background("killing "+termsafe.Line(id), func() tea.Msg {
			info, err := jb.KillJob(id)
			return jobKilledMsg{info, err}
		})
	case len(fields) == 1:
		tail, err := jb.JobTail(fields[0], jobsTail)
		if err != nil {
			m.tr.notice(toneError, termsafe.Line(err.Error()))
			return nil
		}
		if tail == "" {
			tail = "(no output yet)"
		}
		m.tr.notice(toneInfo, "output of "+termsafe.Line(fields[0])+" (its end; /jobs kill "+termsafe.Line(fields[0])+" stops it):\n"+termsafe.String(strings.TrimRight(tail, "\n")))
	default:
		m.tr.notice(toneWarn, "use /jobs, /jobs ID or /jobs kill ID")
	}
	return nil
}

// jobKilledMsg reports /jobs kill.
type jobKilledMsg struct {
	info jobs.Info
	err  error
}

// jobKilled shows how /jobs kill went.
func (m *Model) jobKilled(msg jobKilledMsg) {
	if msg.err != nil {
		m.tr.notice(toneError, "killing the job: "+termsafe.Line(msg.err.Error()))
		return
	}
	m.tr.notice(toneInfo, termsafe.Line(msg.info.ID)+" "+jobState(msg.info))
}

func jobsListing(list []jobs.Info) string {
	if len(list) == 0 {
		return "no background jobs in this session (the agent starts them with bash run_in_background)"
	}
	var b strings.Builder
	b.WriteString("Background jobs (/jobs ID shows one's output, /jobs kill ID stops it):")
	for _, j := range list {
		fmt.Fprintf(&b, "\n  %-7s %-18s %9d bytes  started %s  %s", termsafe.Line(j.ID), jobState(j), j.OutputBytes,
			j.Started.Local().Format("15:04:05"), termsafe.Clip(j.Command, 60))
	}
	return b.String()
}

// jobState says how a job stands in a few words.
func jobState(j jobs.Info) string {
	switch {
	case j.Status == session.JobRunning:
		return "running"
	case j.By != "":
		return "killed by " + termsafe.Line(j.By)
	case j.ExitCode != nil:
		return fmt.Sprintf("exited %d", *j.ExitCode)
	}
	return termsafe.Line(j.Status)
}
