// Package session is the event log: the only record of what happened in a
// session, from which every model request is rebuilt.
//
// A session is a Header plus an append-only list of Events {seq, type,
// time, data}; seq runs 0, 1, 2… without gaps, time is Unix ms, data is
// lossless JSON of one of the structs in event.go. Events are never edited.
//
// Pieces:
//
//	Store        persistence seam: MemStore (tests) and BadgerStore (disk)
//	Log          the single writer of one session: numbering, time,
//	             encoding, batching, durability, live subscriber
//	Validate     load checks: format version, known types, seq contiguity,
//	             torn tail (dropped with a warning), corruption
//	DeriveMessages  the surface projection fed to the model; Surface is
//	             the same with each message's seq, and applies the
//	             replacements of long sessions (a summary user/message
//	             with replaces, tool/pruned); Projector does it
//	             incrementally for a growing log
//	Repair       closes a turn left open by a crash
//	Fork         copies complete turns into a child session
//	Catalog      a home's sessions, one store each: Create/Open as the
//	             one owner (Owned), Load read-only, List from records,
//	             Resolve id prefixes, Remove, migration of round 1's store
//	Settings     what a session runs with, in the header and in
//	             session/settings events (CurrentSettings)
//
// # Durability
//
// Log.Append buffers in memory; the buffer goes to the store when it
// reaches LogOptions.BatchSize (still unsynced) and becomes durable with
// the next Log.AppendDurable or Log.Sync. AppendDurable returns only when
// its event and everything before it are on stable storage. The agent
// appends durably before each model request, before each tool body and at
// every step boundary; chunks are buffered. A process killed without a
// sync loses at most buffered events, and only from the tail.
//
// # On disk
//
// Each session has a directory of its own (see Catalog):
//
//	<home>/sessions/<id>/log/        its Badger store
//	<home>/sessions/<id>/meta.json   the listing record (Summary)
//	<home>/sessions/<id>/owner       the owner lock, with the owner's pid
//	<home>/sessions/<id>/live.sock   the owner's read-only socket (package live)
//
// Inside a store (which could hold several sessions, as round 1's single
// store did; it is still read for migration):
//
//	h/<id>                          header (JSON)
//	m/<id>                          event count + updatedAt (16 bytes)
//	e/<id>/<seq:8 bytes BE>         event: time, type, data
//	r/<^updatedAt:8 BE><id>         index: all sessions, newest first
//	w/<cwd>\x00<^updatedAt:8 BE><id>  index: one workspace, newest first
//
// Appends are Badger transactions (a big batch is split into several,
// each leaving a contiguous prefix); a durable append then syncs the
// write-ahead log. Before any write the store checks that the disk has
// room (space.go), and before Badger opens a store its files are checked
// without writing anything (storecheck.go).
//
// # One writer per session
//
// The process that runs a session holds an exclusive open-file-description
// lock on its owner file for as long as it has it open; a second writer
// gets ErrLocked naming that pid. Readers (show, export, listing's rebuild
// of a stale record) take the shared lock and open the store read-only;
// Badger cannot open read-only a store whose writer was killed, so
// OpenBadger first recovers it with a short read-write open (replaying
// the write-ahead log, as any writer would). Listing never opens a live
// session's store: it reads meta.json and probes the lock.
package session
