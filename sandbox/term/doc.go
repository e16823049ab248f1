// Package term runs programs on pseudo-terminals and shows their screen
// as text, for the terminal_* tools: a REPL, a prompt-driven installer,
// git rebase -i with an editor.
//
//	Manager (one per session) ── Open ──▶ Terminal term-N
//	                                     pty master ◀──▶ slave = the program's
//	                                        │   ▲        stdio (confined by the
//	                       output ──────────┘   │        caller's StartFunc)
//	                        ▼                   │ keystrokes, and the answers
//	                 vt emulator (screen,  ─────┘ the emulator gives to the
//	                 scrollback)                  program's queries
//	                        │
//	 Read ◀─ screen text + the lines that scrolled off since the last read
//
// The emulator is Charm's x/vt: it keeps the screen as a grid of cells,
// so a full-screen program's redraws read as the screen a person would
// see rather than as a stream of escape codes. Every byte the model
// sends goes through the emulator's input side, so keys follow the modes
// the program set (application cursor keys and the like). The program
// itself is started by the caller (Manager.Open's StartFunc), which
// confines it; this package only owns the terminal.
package term
