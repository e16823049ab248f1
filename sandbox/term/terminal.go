package term

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// StartFunc runs a terminal's program with tty (the pseudo-terminal's
// slave side) as its stdin, stdout and stderr, until it ends or ctx ends
// (then it must kill it and return). It returns the exit code and a
// note for the model (changes the sandbox refused, say).
type StartFunc func(ctx context.Context, tty *os.File) (exitCode int, note string, err error)

// Terminal is one program on a pseudo-terminal with an emulator keeping
// its screen. Safe for concurrent use.
type Terminal struct {
	ptm       *os.File // master side
	cancel    context.CancelFunc
	keys      chan []byte // bytes for the program, in order (writer goroutine)
	exited    chan struct{}
	closed    chan struct{} // Close was called
	closeOnce sync.Once

	mu       sync.Mutex
	emu      *vt.Emulator
	cols     int
	rows     int
	output   int64         // bytes the program printed
	readAt   int64         // output when the screen was last read
	changed  chan struct{} // closed and renewed on output or exit
	lastOut  time.Time
	exitCode int
	note     string
	runErr   error
}

// Screen is what terminal_read shows.
type Screen struct {
	Text       string `json:"screen"`
	Scrollback string `json:"scrollback,omitempty"` // lines that scrolled off since the last read
	Dropped    bool   `json:"scrollback_dropped,omitempty"`
	CursorRow  int    `json:"cursor_row"`
	CursorCol  int    `json:"cursor_col"`
	Cols       int    `json:"cols"`
	Rows       int    `json:"rows"`
	Running    bool   `json:"running"`
	ExitCode   *int   `json:"exit_code,omitempty"`
	Note       string `json:"note,omitempty"`
}

// Limits of a terminal.
const (
	DefaultCols, DefaultRows = 100, 30
	MaxCols, MaxRows         = 500, 200
	scrollbackLines          = 2000
	// settle is how long output must pause before a waiting read takes
	// the screen, so a redraw is not read halfway.
	settle = 100 * time.Millisecond
)

// open starts a terminal of cols × rows running start.
func open(cols, rows int, start StartFunc) (*Terminal, error) {
	ptm, tty, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("term: opening a pseudo-terminal: %w", err)
	}
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		ptm.Close()
		tty.Close()
		return nil, fmt.Errorf("term: sizing the pseudo-terminal: %w", err)
	}
	emu := vt.NewEmulator(cols, rows)
	emu.SetScrollbackSize(scrollbackLines)
	ctx, cancel := context.WithCancel(context.Background())
	t := &Terminal{ptm: ptm, cancel: cancel, keys: make(chan []byte, 1024), exited: make(chan struct{}), closed: make(chan struct{}),
		emu: emu, cols: cols, rows: rows, changed: make(chan struct{}), exitCode: -1}
	go t.pumpOutput()
	go t.pumpInput()
	go t.pumpKeys()
	go func() {
		code, note, err := start(ctx, tty)
		tty.Close()
		t.mu.Lock()
		t.exitCode, t.note, t.runErr = code, note, err
		t.wakeLocked()
		t.mu.Unlock()
		close(t.exited)
	}()
	return t, nil
}

// wakeLocked tells waiting readers something changed. t.mu is held.
func (t *Terminal) wakeLocked() {
	close(t.changed)
	t.changed = make(chan struct{})
}

// pumpOutput feeds what the program prints to the emulator.
func (t *Terminal) pumpOutput() {
	buf := make([]byte, 32<<10)
	for {
		n, err := t.ptm.Read(buf)
		if n > 0 {
			t.mu.Lock()
			_, _ = t.emu.Write(buf[:n])
			t.output += int64(n)
			t.lastOut = time.Now()
			t.wakeLocked()
			t.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// pumpInput carries the emulator's input side (keys, text, its answers
// to the program's queries) to the keys queue.
func (t *Terminal) pumpInput() {
	buf := make([]byte, 4<<10)
	for {
		n, err := t.emu.Read(buf)
		if n > 0 {
			select {
			case t.keys <- append([]byte(nil), buf[:n]...):
			case <-t.closed:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// pumpKeys writes the queued bytes to the program. A program that reads
// no input holds up only this goroutine.
func (t *Terminal) pumpKeys() {
	for {
		select {
		case b := <-t.keys:
			if _, err := t.ptm.Write(b); err != nil {
				return // the program is gone: what is queued goes nowhere
			}
		case <-t.closed:
			return
		}
	}
}

// maxSend bounds the text of one Send.
const maxSend = 64 << 10

// Send types text, then presses keys (see ParseKey).
func (t *Terminal) Send(text string, keys []string) error {
	if len(text) > maxSend {
		return fmt.Errorf("the text is %d bytes; send at most %d at a time", len(text), maxSend)
	}
	events := make([]vtKey, 0, len(keys))
	for _, k := range keys {
		ev, err := ParseKey(k)
		if err != nil {
			return err
		}
		events = append(events, ev)
	}
	if !t.Running() {
		return errors.New("the program has ended; open a new terminal")
	}
	if text != "" {
		t.emu.SendText(text)
	}
	for _, ev := range events {
		t.mu.Lock()
		t.emu.SendKey(ev)
		t.mu.Unlock()
	}
	return nil
}

type vtKey = vt.KeyPressEvent

// Running reports whether the program still runs.
func (t *Terminal) Running() bool {
	select {
	case <-t.exited:
		return false
	default:
		return true
	}
}

// Read returns the screen. With wait > 0 it first waits, up to wait, for
// output after the last read (or the program's end), then for the output
// to pause, so the screen is read whole.
func (t *Terminal) Read(ctx context.Context, wait time.Duration) Screen {
	if wait > 0 {
		t.await(ctx, wait)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.readAt = t.output
	s := Screen{Text: t.emu.String(), Cols: t.cols, Rows: t.rows, Running: t.Running(), Note: t.note}
	pos := t.emu.CursorPosition()
	s.CursorRow, s.CursorCol = pos.Y+1, pos.X+1
	if sb := t.emu.Scrollback(); sb != nil && sb.Len() > 0 {
		lines := make([]string, 0, sb.Len())
		for _, l := range sb.Lines() {
			lines = append(lines, strings.TrimRight(l.String(), " "))
		}
		s.Scrollback, s.Dropped = strings.Join(lines, "\n"), sb.Len() >= scrollbackLines
		t.emu.ClearScrollback()
	}
	if !s.Running {
		code := t.exitCode
		s.ExitCode = &code
		if t.runErr != nil {
			s.Note = joinNote(s.Note, t.runErr.Error())
		}
	}
	return s
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// await waits for output after the last read and then for a pause.
func (t *Terminal) await(ctx context.Context, wait time.Duration) {
	deadline := time.Now().Add(wait)
	for {
		t.mu.Lock()
		fresh, changed, quiet := t.output > t.readAt, t.changed, time.Since(t.lastOut)
		t.mu.Unlock()
		left := time.Until(deadline)
		if left <= 0 || !t.Running() && !fresh {
			return
		}
		var timer *time.Timer
		if fresh {
			if quiet >= settle {
				return
			}
			timer = time.NewTimer(min(settle-quiet, left))
		} else {
			timer = time.NewTimer(left)
		}
		select {
		case <-changed:
		case <-timer.C:
		case <-t.exited:
		case <-ctx.Done():
			timer.Stop()
			return
		}
		timer.Stop()
	}
}

// Signals terminal_signal may send.
var Signals = map[string]syscall.Signal{
	"INT": unix.SIGINT, "TERM": unix.SIGTERM, "KILL": unix.SIGKILL, "HUP": unix.SIGHUP, "QUIT": unix.SIGQUIT,
	"TSTP": unix.SIGTSTP, "CONT": unix.SIGCONT, "USR1": unix.SIGUSR1, "USR2": unix.SIGUSR2, "WINCH": unix.SIGWINCH,
}

// Signal sends sig to the terminal's foreground process group, the one a
// key such as Ctrl-C would reach.
func (t *Terminal) Signal(sig syscall.Signal) error {
	if !t.Running() {
		return errors.New("the program has ended")
	}
	pgrp, err := unix.IoctlGetInt(int(t.ptm.Fd()), unix.TIOCGPGRP)
	if err != nil || pgrp <= 1 {
		return fmt.Errorf("the terminal has no foreground process to signal (%v)", err)
	}
	return unix.Kill(-pgrp, sig)
}

// Resize changes the terminal's size; the program gets SIGWINCH.
func (t *Terminal) Resize(cols, rows int) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := pty.Setsize(t.ptm, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		return err
	}
	t.emu.Resize(cols, rows)
	t.cols, t.rows = cols, rows
	return nil
}

// closeWait bounds how long Close waits for the program to go.
const closeWait = 10 * time.Second

// Close kills the program (unless it ended) and releases the terminal;
// it returns the program's exit code (-1: killed).
func (t *Terminal) Close() int {
	t.cancel()
	select {
	case <-t.exited:
	case <-time.After(closeWait):
	}
	t.closeOnce.Do(func() {
		close(t.closed)
		t.ptm.Close()
		// Closing the emulator's input pipe ends pumpInput; the emulator
		// itself is left alone (its Close races with a Read under way).
		if c, ok := t.emu.InputPipe().(io.Closer); ok {
			_ = c.Close()
		}
	})
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.exitCode
}
