// Package serve is `ptc serve`: a home's sessions over HTTP, with a live
// event stream and an embedded web UI. It is a front end over
// harness.Session, as the CLI is; a session it serves behaves exactly as
// one run in a terminal.
//
//	client ──HTTP──► guard (Host fence, Origin, bearer token / cookie, size caps, no CORS)
//	                   │
//	                   ├─ /v1/…            routes() → Server: create, prompt, cancel, answer,
//	                   │                   settings, compact, delete, diff (openapi.json)
//	                   ├─ /v1/…/events     stream: the log from Last-Event-ID, then live
//	                   └─ /                the web UI (web/, embedded)
//
//	Server ── served session ── harness.Session (turns run one after another; a prompt that
//	            │                arrives meanwhile is queued as a follow-up)
//	            ├─ asks          the session's tools.Answerer: pending requests by id,
//	            │                first answer wins; on disk before anyone is asked
//	            └─ hub           wakes the session's streams on every event
//
// A stream carries no copies of events: it reads what it has not sent
// from the session's log, so a slow client never holds the session up and
// never misses an event. Sessions nobody serves are read from the store
// (and pending requests a stopped server left are found in their log,
// staleRequests); answering one resumes the session (answerStale).
//
// Package client is the Go side: requests, a reconnecting event stream,
// a Watcher that puts pending requests to a local answerer, and Remote,
// the TUI's backend over HTTP (ptc attach --serve, ptc --serve).
package serve
