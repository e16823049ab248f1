// Package live serves a running session read-only on a unix socket in its
// directory, so any other process can show it or follow it while its one
// owner writes it (DESIGN §3). The protocol is JSON lines:
//
//	client → {"op":"show"}                  snapshot, then {"end":"snapshot"}
//	client → {"op":"follow","from":N,"until":"turn"|"session"}
//	server → {"header":{…},"pid":N,"running":bool}   first line
//	server → {"event":{seq,type,time,data}}          one per event, in seq order
//	server → {"end":"snapshot"|"turn"|"closed"|"lagged"}   last line
//
// A from of -1 (FromCurrentTurn) starts at the running turn's first event.
// A follower gets every event from seq N on exactly once: those already
// logged, then live ones as they are appended. "until":"turn" ends after
// the turn/end of the turn running when it attached (or of the next one
// if none was); "session" ends when the owner closes the session. A
// follower that cannot keep up is cut off with "lagged" and may attach
// again from its last seq. Nothing a client sends can change the session.
package live
