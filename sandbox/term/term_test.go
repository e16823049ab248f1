package term

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"

	"github.com/ptc-dev/ptc/internal/sharedtest"
	"github.com/ptc-dev/ptc/runtime/session"
)

// direct is a StartFunc running argv unconfined on the tty, as the
// sandbox's helper does inside bubblewrap (a session of its own with the
// tty as its controlling terminal).
func direct(argv ...string) StartFunc {
	return func(ctx context.Context, tty *os.File) (int, string, error) {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
		cmd.Env = []string{"TERM=xterm-256color", "PATH=/usr/bin:/bin", "PYTHONSTARTUP="}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), "", nil
		}
		if err != nil {
			return -1, "", err
		}
		return 0, "", nil
	}
}

type events struct {
	mu   sync.Mutex
	list []session.Event
}

func (e *events) record(typ string, data any) error {
	b, _ := json.Marshal(data)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.list = append(e.list, session.Event{Seq: int64(len(e.list)), Type: typ, Data: b})
	return nil
}

func (e *events) types() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, ev := range e.list {
		out = append(out, ev.Type)
	}
	return strings.Join(out, " ")
}

func python(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		sharedtest.Unavailable(t, "python3 is not installed: %v", err)
	}
	return py
}

// readUntil reads the screen until it holds want or a minute passes.
func readUntil(t *testing.T, m *Manager, id, want string) Screen {
	t.Helper()
	var s Screen
	for end := time.Now().Add(time.Minute); time.Now().Before(end); {
		var err error
		if s, err = m.Read(context.Background(), id, 2*time.Second); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(s.Text+"\n"+s.Scrollback, want) {
			return s
		}
	}
	t.Fatalf("the screen never showed %q; last:\n%s", want, s.Text)
	return s
}

func TestAPythonREPLAnswersOnTheScreen(t *testing.T) {
	ev := &events{}
	m := NewManager(Config{Record: ev.record})
	defer m.CloseAll()
	info, err := m.Open(OpenSpec{Command: "python3 -i", Start: direct(python(t), "-i", "-q")})
	if err != nil {
		t.Fatal(err)
	}
	readUntil(t, m, info.ID, ">>>")
	if err := m.Send(info.ID, "print(6*7)", []string{"Enter"}); err != nil {
		t.Fatal(err)
	}
	s := readUntil(t, m, info.ID, "42")
	if !s.Running || s.Cols != DefaultCols || s.Rows != DefaultRows {
		t.Fatalf("screen %+v", s)
	}
	t.Run("Ctrl-C interrupts what the program does", func(t *testing.T) {
		if err := m.Send(info.ID, "import time; time.sleep(600)", []string{"Enter"}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
		if err := m.Send(info.ID, "", []string{"Ctrl-C"}); err != nil {
			t.Fatal(err)
		}
		readUntil(t, m, info.ID, "KeyboardInterrupt")
	})
	t.Run("terminal_signal reaches the foreground process", func(t *testing.T) {
		if err := m.Send(info.ID, "time.sleep(601)", []string{"Enter"}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
		if err := m.Signal(info.ID, "INT"); err != nil {
			t.Fatal(err)
		}
		s := readUntil(t, m, info.ID, "time.sleep(601)")
		for !strings.Contains(s.Text[strings.Index(s.Text, "time.sleep(601)"):], "KeyboardInterrupt") {
			s = readUntil(t, m, info.ID, "time.sleep(601)")
		}
	})
	t.Run("the program's exit is recorded and shown", func(t *testing.T) {
		if err := m.Send(info.ID, "", []string{"Ctrl-D"}); err != nil {
			t.Fatal(err)
		}
		for s := readUntil(t, m, info.ID, ">>>"); s.Running; s, _ = m.Read(context.Background(), info.ID, time.Second) {
		}
		// python3 -i ends with the status of the last interrupt it took.
		if list := m.List(); list[0].Status != StatusExited || list[0].ExitCode == nil {
			t.Fatalf("list %+v", list)
		}
		if err := m.Send(info.ID, "x", nil); err == nil {
			t.Fatal("sending to an ended program succeeded")
		}
	})
	if _, err := m.Close(info.ID, session.EndedByModel); err != nil {
		t.Fatal(err)
	}
	if got := ev.types(); got != "terminal/open terminal/close" {
		t.Fatalf("events %s", got)
	}
}

func TestScrolledOffLinesComeOnceWithTheNextRead(t *testing.T) {
	m := NewManager(Config{})
	defer m.CloseAll()
	info, err := m.Open(OpenSpec{Command: "seq", Cols: 40, Rows: 5, Start: direct("/bin/sh", "-c", "seq 1 20; sleep 600")})
	if err != nil {
		t.Fatal(err)
	}
	s := readUntil(t, m, info.ID, "20")
	if !strings.HasPrefix(s.Scrollback, "1\n2\n") || strings.Contains(s.Text, "\n1\n") {
		t.Fatalf("scrollback %q, screen %q", s.Scrollback, s.Text)
	}
	if again, _ := m.Read(context.Background(), info.ID, 0); again.Scrollback != "" {
		t.Fatalf("scrollback repeated: %q", again.Scrollback)
	}
}

func TestCloseKillsTheProgramAndCloseAllRefusesNewTerminals(t *testing.T) {
	ev := &events{}
	m := NewManager(Config{Record: ev.record, Max: 1})
	info, err := m.Open(OpenSpec{Command: "sleep", Start: direct("/bin/sleep", "600")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Open(OpenSpec{Command: "sleep", Start: direct("/bin/sleep", "600")}); err == nil || !strings.Contains(err.Error(), info.ID) {
		t.Fatalf("a second terminal over the cap: %v", err)
	}
	m.CloseAll()
	if list := m.List(); list[0].Status != StatusClosed {
		t.Fatalf("list %+v", list)
	}
	if _, err := m.Open(OpenSpec{Command: "x", Start: direct("/bin/true")}); err != ErrClosed {
		t.Fatalf("open after CloseAll: %v", err)
	}
	if got := ev.types(); got != "terminal/open terminal/close" {
		t.Fatalf("events %s", got)
	}
}

func TestARestoredSessionRecordsTheTerminalsPtcsDeathLeftOpen(t *testing.T) {
	ev := &events{}
	m := NewManager(Config{Record: ev.record})
	m.Open(OpenSpec{Command: "sleep", Start: direct("/bin/sleep", "600")})
	prior := append([]session.Event(nil), ev.list...)
	m.CloseAll()

	ev2 := &events{}
	again := NewManager(Config{Record: ev2.record})
	if err := again.Restore(prior); err != nil {
		t.Fatal(err)
	}
	if got := ev2.types(); got != "terminal/close" {
		t.Fatalf("recorded %q", got)
	}
	if list := again.List(); len(list) != 1 || list[0].Status != StatusClosed {
		t.Fatalf("list %+v", list)
	}
	if _, err := again.Read(context.Background(), "term-1", 0); err == nil {
		t.Fatal("read a restored terminal")
	}
}

func TestKeyNames(t *testing.T) {
	tests := []struct {
		name string
		want uv.KeyPressEvent
		bad  bool
	}{
		{"Enter", uv.KeyPressEvent{Code: uv.KeyEnter}, false},
		{"ctrl-c", uv.KeyPressEvent{Code: 'c', Mod: uv.ModCtrl}, false},
		{"Ctrl-C", uv.KeyPressEvent{Code: 'c', Mod: uv.ModCtrl}, false},
		{"Shift-Tab", uv.KeyPressEvent{Code: uv.KeyTab, Mod: uv.ModShift}, false},
		{"Alt-x", uv.KeyPressEvent{Code: 'x', Mod: uv.ModAlt}, false},
		{"PageDown", uv.KeyPressEvent{Code: uv.KeyPgDown}, false},
		{"F12", uv.KeyPressEvent{Code: uv.KeyF12}, false},
		{"Hyper-Q", uv.KeyPressEvent{}, true},
		{"", uv.KeyPressEvent{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseKey(tc.name)
			if tc.bad != (err != nil) || !tc.bad && got != tc.want {
				t.Fatalf("ParseKey(%q) = %+v, %v", tc.name, got, err)
			}
		})
	}
}

func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"Enter", "Ctrl-C", "Alt-Shift-Up", "ctrl+", "-", "Ctrl-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseKey(s) })
}
