// Package jobs keeps a session's background jobs: commands a bash call
// started with run_in_background that go on running while the model
// works, until they end, are killed, or the session closes.
//
//	bash {run_in_background} ──Start(Spec)──▶ Manager (one per session)
//	                                          │ job-N: goroutine running Spec.Run
//	  job/start ◀── Record ───────────────────┤   output ──▶ <spill>/job-N.log
//	  job/end   ◀── Record ───────────────────┤   (capped; the model reads it
//	                                          │    with job_output or read)
//	job_list, job_output, job_kill ──────────▶│
//	Pending() ─▶ the "Pending jobs" lines of the runtime-context snapshot
//	TakeNotices() ─▶ one notice per job that ended by itself, joined to the
//	                 next step (a pre-step hook)
//	Close() ─▶ kills what runs, logs each as killed by the session
//	Restore(events) ─▶ jobs of earlier runs, shown as ended; one that ptc's
//	                   death left without a job/end gets it now (ptc-exit)
//
// The Manager knows nothing of the sandbox: Spec.Run is the command,
// given by the caller with its sandbox scope already bound (mode,
// protected paths, quota, the session's network). Killing a job ends its
// context; Run must then stop everything it started (the sandbox kills
// the guest and every bwrap sandbox, whose PID namespace takes the whole
// process tree with it) and return.
package jobs
