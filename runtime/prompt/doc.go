// Package prompt assembles what a model request carries besides the
// conversation: the system text (ordered named sections with strict
// {{variables}}), the runtime-context snapshot (a user message, never
// system text, so the system prompt stays byte-stable for prefix caches),
// and the request header that records system text, tools and options in
// the log.
//
// The central promise is that a request is a pure function of the session
// log:
//
//	request/header (latest before the point)  ─┐
//	                                            ├─> BuildRequest(events) = llm.Request
//	DeriveMessages(surface events)            ─┘
//
// The agent builds every request it sends with BuildRequest, and tests
// rebuild every captured request from the stored log alone.
package prompt
