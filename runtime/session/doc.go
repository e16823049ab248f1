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
// # Badger layout
//
// One Badger directory (<home>/sessions) holds every session:
//
//	h/<id>                          header (JSON)
//	m/<id>                          event count + updatedAt (16 bytes)
//	e/<id>/<seq:8 bytes BE>         event: time, type, data
//	r/<^updatedAt:8 BE><id>         index: all sessions, newest first
//	w/<cwd>\x00<^updatedAt:8 BE><id>  index: one workspace, newest first
//
// A prefix scan of e/<id>/ returns a session's events in seq order; List
// scans r/ or w/<cwd> and reads only headers and meta. Appends are Badger
// transactions (a big batch is split into several, each leaving a
// contiguous prefix); a durable append then syncs the write-ahead log.
//
// # One writer per store
//
// Badger locks its directory. A second process opening the same store
// read-write gets ErrLocked. BadgerOptions.ReadOnly takes a shared lock:
// several readers may share a store that no process is writing, but
// Badger cannot attach a reader while a writer holds the directory, so
// that also fails with ErrLocked (the message says to wait for the other
// ptc to exit). Badger cannot open read-only a store whose writer was
// killed either, so OpenBadger first recovers it with a short read-write
// open (replaying the write-ahead log, as any writer would) and then
// attaches read-only; the read-only handle itself never writes.
package session
