// Package worker runs queued turns of sessions kept in JetStream: the
// fleet side of ptc (ptc worker). Clients put a Job (session, input) on
// a pool's work queue; any worker of the pool takes it.
//
//	ptc run --nats URL ─ Enqueue ─▶ PTC_TURNS  ptc.turns.<pool>  (work queue)
//	                                   │ Fetch(1) per free slot
//	                                   ▼
//	           worker: lease the session (PTC_LEASES, CAS renewal)
//	                   harness.Open on natsstore.Catalog (repairs a cut turn)
//	                   worker/start → the turn → worker/end   (events in PTC_EVENTS)
//	                   InProgress every AckWait/3 while it runs; Ack at the end
//
// A worker that dies stops heartbeating; after AckWait the server hands
// the job to another worker, which waits for the dead one's lease to
// expire (the session is busy until then), opens the session — the
// harness repairs the open turn exactly as a local resume does
// (TOOL_OUTCOME_UNKNOWN for the call in flight, turn/end interrupted) —
// and, since the job's input is already in the log, runs a turn with a
// notice that the previous worker stopped instead of the input again.
// A worker/end already in the log means only the acknowledgement was lost:
// the job is acknowledged without running anything. Attempts are counted
// in the log (its worker/start events), not by the queue: a delivery that
// finds the session still leased is put back without counting, and a job
// MaxAttempts workers began and none finished gets a worker/end with the
// failure, so its client never waits on a job the queue dropped.
//
// A worker that lacks a session's workspace refuses the job: it records
// a worker/end with the reason (the client prints it) and terminates the
// message. Pools bind workspaces to the machines that have them.
//
// Dependency direction (DESIGN §2): cmd → worker → harness.
package worker
