package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptc-dev/ptc/runtime/session"
)

// recorder keeps what a Manager records, as session events.
type recorder struct {
	mu     sync.Mutex
	events []session.Event
}

func (r *recorder) record(typ string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, session.Event{Seq: int64(len(r.events)), Type: typ, Time: time.Now().UnixMilli(), Data: b})
	return nil
}

func (r *recorder) ends() []session.JobEnd {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []session.JobEnd
	for _, e := range r.events {
		if e.Type == session.TypeJobEnd {
			var d session.JobEnd
			_ = json.Unmarshal(e.Data, &d)
			out = append(out, d)
		}
	}
	return out
}

func newManager(t *testing.T, cfg Config) (*Manager, *recorder) {
	t.Helper()
	rec := &recorder{}
	cfg.Record = rec.record
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m, rec
}

// script is a RunFunc that prints each line handed to it on lines, and
// exits with the code sent on exit, or -1 when killed.
type script struct {
	lines   chan string
	wrote   chan struct{}
	exit    chan int
	stopped chan struct{}
}

func newScript() *script {
	return &script{lines: make(chan string), wrote: make(chan struct{}), exit: make(chan int), stopped: make(chan struct{})}
}

// say has the job print l and waits until it has.
func (s *script) say(l string) {
	s.lines <- l
	<-s.wrote
}

func (s *script) run(ctx context.Context, w io.Writer) (int, string, error) {
	defer close(s.stopped)
	for {
		select {
		case l := <-s.lines:
			fmt.Fprintln(w, l)
			s.wrote <- struct{}{}
		case code := <-s.exit:
			return code, "", nil
		case <-ctx.Done():
			return -1, "", nil
		}
	}
}

func start(t *testing.T, m *Manager, s *script) Info {
	t.Helper()
	info, err := m.Start(Spec{Command: "serve --port 8000", Mode: "workspace-write", Run: s.run})
	if err != nil {
		t.Fatal(err)
	}
	return info
}

func read(t *testing.T, m *Manager, id string, wait time.Duration, tail int) Output {
	t.Helper()
	out, err := m.Read(context.Background(), id, wait, tail)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestAJobsOutputIsReadInPiecesAsItComes(t *testing.T) {
	m, _ := newManager(t, Config{})
	s := newScript()
	info := start(t, m, s)
	if info.ID != "job-1" || info.Status != session.JobRunning {
		t.Fatalf("started %+v", info)
	}
	s.say("one")
	s.say("two")
	if out := read(t, m, "job-1", 0, 0); out.New != "one\ntwo\n" {
		t.Fatalf("first read %q", out.New)
	}
	if out := read(t, m, "job-1", 0, 0); out.New != "" || out.Status != session.JobRunning {
		t.Fatalf("a read with nothing new: %+v", out)
	}
	t.Run("a read with wait_ms returns as soon as output comes", func(t *testing.T) {
		go s.say("three")
		if out := read(t, m, "job-1", time.Minute, 0); out.New != "three\n" {
			t.Fatalf("waited read %q", out.New)
		}
	})
	t.Run("tail_lines keeps the last lines of the new output", func(t *testing.T) {
		s.say("a")
		s.say("b")
		s.say("c")
		if out := read(t, m, "job-1", 0, 2); out.New != "b\nc\n" {
			t.Fatalf("tail read %q", out.New)
		}
	})
	s.exit <- 3
	out := read(t, m, "job-1", time.Minute, 0)
	for out.Status == session.JobRunning {
		out = read(t, m, "job-1", time.Minute, 0)
	}
	if out.Status != session.JobExited || *out.ExitCode != 3 {
		t.Fatalf("ended %+v", out.Info)
	}
}

func TestMoreNewOutputThanOneReadShowsItsEndAndPointsToTheRest(t *testing.T) {
	m, _ := newManager(t, Config{ReadLimit: 64})
	s := newScript()
	start(t, m, s)
	for i := range 20 {
		s.say(fmt.Sprintf("line %02d", i))
	}
	out := read(t, m, "job-1", 0, 0)
	if !strings.HasSuffix(out.New, "line 19\n") || len(out.New) > 64 || out.Omitted == 0 {
		t.Fatalf("read %q, omitted %d", out.New, out.Omitted)
	}
	if !strings.Contains(out.Note, "lines 1-") || !strings.Contains(out.Note, "job-1.log") {
		t.Fatalf("note %q", out.Note)
	}
}

func TestOutputPastTheLimitIsDroppedAndSaidSo(t *testing.T) {
	m, rec := newManager(t, Config{OutputLimit: 10})
	s := newScript()
	start(t, m, s)
	s.say("0123456789abcdef")
	s.exit <- 0
	<-s.stopped
	if out := read(t, m, "job-1", time.Minute, 0); out.New != "0123456789" {
		t.Fatalf("kept %q", out.New)
	}
	waitEnds(t, rec, 1)
	if end := rec.ends()[0]; !strings.Contains(end.Note, "7 bytes of output past the 10-byte limit were dropped") || end.OutputBytes != 10 {
		t.Fatalf("end %+v", end)
	}
}

func waitEnds(t *testing.T, rec *recorder, n int) {
	t.Helper()
	for end := time.Now().Add(time.Minute); len(rec.ends()) < n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%d job/end events, want %d", len(rec.ends()), n)
		}
	}
}

func TestKillEndsTheJobAndRecordsWhoKilledIt(t *testing.T) {
	m, rec := newManager(t, Config{})
	s := newScript()
	start(t, m, s)
	info, err := m.Kill("job-1", session.EndedByModel)
	if err != nil {
		t.Fatal(err)
	}
	if info.Status != session.JobKilled || info.By != session.EndedByModel {
		t.Fatalf("killed %+v", info)
	}
	select {
	case <-s.stopped:
	default:
		t.Fatal("Kill returned before the job's Run did")
	}
	if ends := rec.ends(); len(ends) != 1 || ends[0].Status != session.JobKilled || ends[0].By != session.EndedByModel {
		t.Fatalf("recorded %+v", ends)
	}
	if n := m.TakeNotices(); len(n) != 0 {
		t.Fatalf("a killed job was announced: %+v", n)
	}
	t.Run("killing it again says how it ended", func(t *testing.T) {
		if again, err := m.Kill("job-1", session.EndedByModel); err != nil || again.Status != session.JobKilled {
			t.Fatalf("%+v %v", again, err)
		}
	})
	t.Run("an unknown id is a failure naming the known ones", func(t *testing.T) {
		if _, err := m.Kill("job-9", session.EndedByModel); err == nil || !strings.Contains(err.Error(), "job-1") {
			t.Fatalf("err %v", err)
		}
	})
}

func TestASessionRunsAtMostMaxJobs(t *testing.T) {
	m, _ := newManager(t, Config{Max: 2})
	start(t, m, newScript())
	start(t, m, newScript())
	if _, err := m.Start(Spec{Command: "third", Run: newScript().run}); err == nil || !strings.Contains(err.Error(), "job-1, job-2") {
		t.Fatalf("a third job: %v", err)
	}
	if _, err := m.Kill("job-1", session.EndedByModel); err != nil {
		t.Fatal(err)
	}
	if info, err := m.Start(Spec{Command: "third", Run: newScript().run}); err != nil || info.ID != "job-3" {
		t.Fatalf("after a kill: %+v %v", info, err)
	}
}

func TestAJobThatEndsByItselfIsAnnouncedOnceUnlessTheModelSawIt(t *testing.T) {
	m, rec := newManager(t, Config{})
	tests := []struct {
		name   string
		look   func(id string)
		notice bool
	}{
		{"nobody looked: one notice with the output's end", func(string) {}, true},
		{"job_output saw the end: none", func(id string) { read(t, m, id, 0, 0) }, false},
		{"job_list showed the end: none", func(string) { m.List() }, false},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newScript()
			info := start(t, m, s)
			s.say("BG-DONE")
			s.exit <- 0
			waitEnds(t, rec, i+1)
			tc.look(info.ID)
			notices := m.TakeNotices()
			if !tc.notice {
				if len(notices) != 0 {
					t.Fatalf("notices %+v", notices)
				}
				return
			}
			if len(notices) != 1 {
				t.Fatalf("notices %+v", notices)
			}
			text := notices[0].Text()
			for _, want := range []string{info.ID, "exit code 0", "BG-DONE", "job_output"} {
				if !strings.Contains(text, want) {
					t.Errorf("notice %q lacks %q", text, want)
				}
			}
			if again := m.TakeNotices(); len(again) != 0 {
				t.Fatalf("announced twice: %+v", again)
			}
		})
	}
}

func TestPendingListsRunningJobsOnlyAndStaysPutBetweenChanges(t *testing.T) {
	m, _ := newManager(t, Config{})
	if p := m.Pending(); len(p) != 0 {
		t.Fatalf("pending before any job: %q", p)
	}
	s := newScript()
	start(t, m, s)
	first := m.Pending()
	s.say("output does not change the lines")
	if len(first) != 1 || !strings.HasPrefix(first[0], "job-1: serve --port 8000 (started ") || fmt.Sprint(m.Pending()) != fmt.Sprint(first) {
		t.Fatalf("pending %q then %q", first, m.Pending())
	}
	m.Kill("job-1", session.EndedByModel)
	if p := m.Pending(); len(p) != 0 {
		t.Fatalf("pending after the kill: %q", p)
	}
}

func TestAWallClockCapKillsTheJob(t *testing.T) {
	m, rec := newManager(t, Config{})
	s := newScript()
	if _, err := m.Start(Spec{Command: "slow", Timeout: 10 * time.Millisecond, Run: s.run}); err != nil {
		t.Fatal(err)
	}
	waitEnds(t, rec, 1)
	if end := rec.ends()[0]; end.Status != session.JobKilled || end.By != session.EndedByTimeout {
		t.Fatalf("end %+v", end)
	}
}

func TestCloseKillsRunningJobsAndRefusesNewOnes(t *testing.T) {
	m, rec := newManager(t, Config{})
	a, b := newScript(), newScript()
	start(t, m, a)
	start(t, m, b)
	m.Close()
	ends := rec.ends()
	if len(ends) != 2 || ends[0].By != session.EndedByClose || ends[1].By != session.EndedByClose {
		t.Fatalf("ends %+v", ends)
	}
	if _, err := m.Start(Spec{Command: "late", Run: newScript().run}); err != ErrClosed {
		t.Fatalf("start after close: %v", err)
	}
}

func TestARestoredSessionShowsItsJobsEndedAndRecordsTheOnesPtcsDeathCut(t *testing.T) {
	dir := t.TempDir()
	first, rec := newManager(t, Config{Dir: dir})
	done, cut := newScript(), newScript()
	start(t, first, done)
	start(t, first, cut)
	done.say("finished")
	done.exit <- 0
	cut.say("half")
	waitEnds(t, rec, 1)
	// ptc dies here: job-2 never gets its job/end.
	events := append([]session.Event(nil), rec.events...)

	second, rec2 := newManager(t, Config{Dir: dir})
	if err := second.Restore(events); err != nil {
		t.Fatal(err)
	}
	list := second.List()
	if len(list) != 2 || list[0].Status != session.JobExited || list[1].Status != session.JobKilled || list[1].By != session.EndedByExit {
		t.Fatalf("restored %+v", list)
	}
	if ends := rec2.ends(); len(ends) != 1 || ends[0].JobID != "job-2" || ends[0].By != session.EndedByExit {
		t.Fatalf("recorded on restore %+v", ends)
	}
	if out := read(t, second, "job-2", 0, 0); out.New != "half\n" {
		t.Fatalf("the cut job's output %q", out.New)
	}
	if info, err := second.Start(Spec{Command: "next", Run: newScript().run}); err != nil || info.ID != "job-3" {
		t.Fatalf("numbering after restore: %+v %v", info, err)
	}
	if n := second.TakeNotices(); len(n) != 0 {
		t.Fatalf("restored jobs were announced: %+v", n)
	}
}

func TestARunThatCannotStartEndsTheJobWithItsError(t *testing.T) {
	m, rec := newManager(t, Config{})
	_, err := m.Start(Spec{Command: "x", Run: func(context.Context, io.Writer) (int, string, error) {
		return 0, "", fmt.Errorf("the sandbox is closed")
	}})
	if err != nil {
		t.Fatal(err)
	}
	waitEnds(t, rec, 1)
	if end := rec.ends()[0]; end.ExitCode != 126 || !strings.Contains(end.Note, "the sandbox is closed") {
		t.Fatalf("end %+v", end)
	}
}
