package session

// Events a fleet worker writes around the turns it runs for a queued job
// (package worker). They let a worker that takes over a job another one
// was running when it died tell what was done: a worker/start without
// its worker/end was cut short; a worker/end means only the
// acknowledgement was lost.
var (
	TypeWorkerStart = eventType("worker/start")
	TypeWorkerEnd   = eventType("worker/end")
)

// WorkerStart is the data of worker/start: a worker begins (or, with Attempt
// above 1, takes over) queued job Job of pool Pool.
type WorkerStart struct {
	Job     string `json:"job"`
	Pool    string `json:"pool"`
	Worker  string `json:"worker"`
	Attempt int    `json:"attempt"`
}

// WorkerEnd is the data of worker/end: the job is done, its last turn ended
// with Reason (a turn/end reason), or it failed before a turn could run
// (Failure).
type WorkerEnd struct {
	Job     string `json:"job"`
	Worker  string `json:"worker"`
	Reason  string `json:"reason,omitempty"`
	Failure string `json:"failure,omitempty"`
}
