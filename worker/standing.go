package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/ptc-dev/ptc/runtime/session"
)

// jobStanding is where a job stands in its session's log.
type jobStanding struct {
	starts  int  // its worker/start events: the workers that began it
	entered bool // a turn started after its first worker/start: its input is in the log
	ended   bool // its worker/end is there
}

// standing reads the job's events from a session's log.
func standing(events []session.Event, job string) jobStanding {
	var st jobStanding
	for _, e := range events {
		switch e.Type {
		case session.TypeWorkerStart:
			var d session.WorkerStart
			if json.Unmarshal(e.Data, &d) == nil && d.Job == job {
				st.starts++
			}
		case session.TypeWorkerEnd:
			var d session.WorkerEnd
			if json.Unmarshal(e.Data, &d) == nil && d.Job == job {
				st.ended = true
			}
		case session.TypeTurnStart:
			if st.starts > 0 {
				st.entered = true
			}
		}
	}
	return st
}

// checkWorkspace refuses a job whose session's workspace this machine
// does not have: a pool is bound to machines that have its workspaces.
func (w *Worker) checkWorkspace(ctx context.Context, job Job) (result, bool) {
	ld, err := w.cfg.Catalog.Load(ctx, job.Session)
	if err != nil {
		if errors.Is(err, session.ErrNotFound) {
			w.say("job %s: no session %s; dropping it", job.ID, job.Session)
			return resRefused, false
		}
		w.say("job %s: read session %s: %v", job.ID, job.Session, err)
		return resLeft, false
	}
	cur, err := session.CurrentSettings(ld.Header, ld.Events)
	if err != nil {
		return w.refuse(ctx, job, err), false
	}
	ws := cur.With(job.Settings, job.Override...).Workspace
	if st, err := os.Stat(ws); err != nil || !st.IsDir() {
		return w.refuse(ctx, job, fmt.Errorf("worker %s has no workspace %s on this machine; run the workers of pool %s where the session's workspace exists (a shared or cloned path)", w.cfg.Name, ws, w.cfg.Pool)), false
	}
	return resDone, true
}

// refuse records in the session why the job cannot run (so the client
// that queued it reports it) and terminates the job.
func (w *Worker) refuse(ctx context.Context, job Job, why error) result {
	w.say("refusing job %s of session %s: %v", job.ID, job.Session, why)
	h, err := w.cfg.Catalog.Open(ctx, job.Session, session.LogOptions{})
	if errors.Is(err, session.ErrLocked) {
		return resBusy
	}
	if err != nil {
		w.say("job %s: cannot record the refusal: %v", job.ID, err)
		return resRefused
	}
	_, err = h.SessionLog().AppendDurable(ctx, session.TypeWorkerEnd, session.WorkerEnd{Job: job.ID, Worker: w.cfg.Name, Failure: why.Error()})
	if err = errors.Join(err, h.Close()); err != nil {
		w.say("job %s: cannot record the refusal: %v", job.ID, err)
	}
	return resRefused
}
