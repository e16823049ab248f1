// Package checkpoint keeps what a session's turns change in the workspace
// so that a rewind can put it back and a diff can show it.
//
// A Recorder is told, before every write the sandbox makes (Touch), which
// path is about to change; on a turn's first write to a path it keeps the
// path's state then — a file's bytes by sha256 in the session's Store, a
// symlink's target, a directory's entries below it — and at the turn's
// end (End) the state after, so a turn's record (a checkpoint/turn
// event) holds both. A Plan compares the workspace now with what ptc
// last left there (a path changed since by someone else is a conflict)
// and Apply puts the states before a chosen turn back, through an
// os.Root of the workspace.
//
// Costs are bounded: files over MaxFileBytes and anything past the
// session's byte cap are recorded by hash only (a rewind names them as
// lost rather than guessing), and .git is never recorded (ptc never
// writes the repository's history; git-write commands are the user's).
package checkpoint
